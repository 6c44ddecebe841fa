import { describe, expect, it } from 'vitest';
import { buildReport, cell, perItemValues, renderHtml, renderMarkdown } from '../../../src/experiment/report/index.js';
import { reportInput, sampleOutcomes, scored } from '../../fixtures/experiment/report-input.js';

describe('buildReport', () => {
  it('summarises every metric per split and stratum, adversarial items kept apart', () => {
    const report = buildReport(reportInput());
    const all = cell(report, 'faithfulness')!;
    expect(all.summary.n).toBe(16);
    expect(cell(report, 'faithfulness', 'dev')!.summary.n).toBe(8);
    expect(cell(report, 'faithfulness', 'all', 'multi-hop')!.summary.n).toBeGreaterThan(0);
    expect(cell(report, 'faithfulness', 'all', 'adversarial')).toBeUndefined();
    expect(report.abstention).toMatchObject({ n: 8, rate: 0.75 });
    expect(report.items).toMatchObject({ total: 24, bySplit: { dev: 12, test: 12 } });
  });

  it('judges the gate on the test split when it has items, else on all', () => {
    const withTest = buildReport(reportInput());
    expect(withTest.gate.judgedOn).toBe('test');
    expect(withTest.gate.values.faithfulness).toBeCloseTo(cell(withTest, 'faithfulness', 'test')!.summary.mean!, 12);
    const devOnly = buildReport(reportInput({ outcomes: sampleOutcomes().filter((o) => o.split === 'dev'), split: 'dev' }));
    expect(devOnly.gate.judgedOn).toBe('all');
  });

  it('fails the gate as "no data" for a metric without any scored item', () => {
    const outcomes = sampleOutcomes().map((o) => ({ ...o, results: o.results.filter((r) => r.metric !== 'context_recall') }));
    const report = buildReport(reportInput({ outcomes }));
    expect(report.gate.passed).toBe(false);
    expect(report.gate.lines).toContain('context_recall: no value (threshold 0.8)');
    expect(report.diagnosis).toBeNull();
  });

  it('passes the gate when every metric clears its threshold', () => {
    const report = buildReport(reportInput({ outcomes: sampleOutcomes(0.3) }));
    expect(report.gate.passed).toBe(true);
    expect(report.diagnosis?.status).toBe('healthy');
  });

  it('lists only dev items one by one (Goodhart guard)', () => {
    const report = buildReport(reportInput());
    expect(report.worstItems.length).toBeGreaterThan(0);
    const devIds = new Set(sampleOutcomes().filter((o) => o.split === 'dev').map((o) => o.itemId));
    for (const w of report.worstItems) expect(devIds.has(w.itemId)).toBe(true);
    const testIds = sampleOutcomes().filter((o) => o.split === 'test').map((o) => o.itemId);
    const md = renderMarkdown(report);
    const html = renderHtml(report);
    for (const id of testIds) {
      expect(md).not.toContain(id);
      expect(html).not.toContain(id);
    }
  });

  it('flags no regression on an unchanged rerun and flags a degraded one on the right metrics', () => {
    const first = sampleOutcomes();
    const previous = { runName: 'weekly-2026-W47', perItem: perItemValues(first, ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall']) };
    const same = buildReport(reportInput({ previous }));
    expect(same.comparison!.regressions).toEqual([]);

    const degraded = sampleOutcomes().map((o) => ({
      ...o,
      results: o.results.map((r) => (r.metric === 'context_precision' && r.status === 'scored' ? scored('context_precision', r.value - 0.3) : r)),
    }));
    const worse = buildReport(reportInput({ previous, outcomes: degraded }));
    expect(worse.comparison!.regressions).toEqual(['context_precision']);
    const row = worse.baseline.find((b) => b.metric === 'context_precision')!;
    expect(row.changePct!).toBeLessThan(0);
  });

  it('reports ΔFaithfulness clean − noisy and flags it above 0.15', () => {
    const outcomes = sampleOutcomes().map((o) => {
      const f = o.results.find((r) => r.metric === 'faithfulness');
      return f?.status === 'scored' ? { ...o, noisyFaithfulness: f.value - 0.25 } : o;
    });
    const report = buildReport(reportInput({ outcomes }));
    expect(report.noise!.deltaFaithfulness).toBeCloseTo(0.25, 10);
    expect(report.noise!.flagged).toBe(true);
    expect(buildReport(reportInput()).noise).toBeNull();
  });

  it('gives byte-identical output for the same inputs and seed', () => {
    const a = JSON.stringify(buildReport(reportInput()));
    const b = JSON.stringify(buildReport(reportInput({ outcomes: [...sampleOutcomes()].reverse() })));
    expect(a).toBe(b);
  });

  it('renders a bar with whiskers and a threshold line per metric in the HTML', () => {
    const html = renderHtml(buildReport(reportInput()));
    for (const m of ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall']) {
      const group = html.match(new RegExp(`<g class="metric" data-metric="${m}">(.*?)</g></g>|<g class="metric" data-metric="${m}">(.*?)</g>`))![0];
      expect(group).toContain('class="bar');
      expect(group).toContain('class="whisker"');
    }
    expect(html.match(/class="threshold"/g)).toHaveLength(4);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });
});
