import { describe, expect, it } from 'vitest';
import { buildReport, cell, perItemValues, renderHtml, renderMarkdown } from '../../../src/experiment/report/index.js';
import { DEFINITIONS, reportInput, sampleOutcomes, scored } from '../../fixtures/experiment/report-input.js';

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
    expect(withTest.gate!.judgedOn).toBe('test');
    expect(withTest.gate!.values.faithfulness).toBeCloseTo(cell(withTest, 'faithfulness', 'test')!.summary.mean!, 12);
    const devOnly = buildReport(
      reportInput({ outcomes: sampleOutcomes().filter((o) => o.split === 'dev'), split: 'dev' }),
    );
    expect(devOnly.gate!.judgedOn).toBe('all');
  });

  it('has not enough evidence, not a fail, for a gated metric without any scored item', () => {
    const outcomes = sampleOutcomes(0.3).map((o) => ({
      ...o,
      results: o.results.filter((r) => r.metric !== 'context_recall'),
    }));
    const report = buildReport(reportInput({ outcomes }));
    expect(report.gate).toMatchObject({ outcome: 'not_enough_evidence', passed: false });
    expect(report.gate!.deciding!.check).toBe('context_recall');
    expect(report.gate!.lines).toContain(
      'context_recall: no value, n = 0, threshold ≥ 0.8: not enough evidence (nothing scored)',
    );
    expect(report.diagnosis).toBeNull();
  });

  it('decides on too few items neither way: not enough evidence below experiment.gate.minItems', () => {
    const report = buildReport(
      reportInput({
        outcomes: sampleOutcomes(0.3),
        gate: { rule: 'point', minItems: 30, minAbstention: 0.5, minAbstentionItems: 1 },
      }),
    );
    expect(report.gate!.outcome).toBe('not_enough_evidence');
    expect(report.gate!.checks.find((c) => c.check === 'faithfulness')).toMatchObject({
      outcome: 'not_enough_evidence',
      n: 8,
      minN: 30,
    });
    expect(renderMarkdown(report)).toContain('## Verdict: NOT ENOUGH EVIDENCE');
    expect(renderHtml(report)).toContain('data-outcome="not_enough_evidence"');
  });

  it('gates abstention on the gate split: a RAG that answers every false premise fails', () => {
    const never = sampleOutcomes(0.3).map((o) => (o.adversarial ? { ...o, abstained: false } : o));
    const report = buildReport(reportInput({ outcomes: never }));
    expect(report.gate!.outcome).toBe('failed');
    expect(report.gate!.deciding).toMatchObject({ check: 'abstention', value: 0, outcome: 'failed' });
    // Not gated when the floor is off.
    const off = buildReport(
      reportInput({
        outcomes: never,
        gate: { rule: 'point', minItems: 1, minAbstention: null, minAbstentionItems: 1 },
      }),
    );
    expect(off.gate!.checks.map((c) => c.check)).not.toContain('abstention');
  });

  it('passes the gate when every metric clears its threshold', () => {
    const report = buildReport(reportInput({ outcomes: sampleOutcomes(0.3) }));
    expect(report.gate!.passed).toBe(true);
    expect(report.diagnosis?.status).toBe('healthy');
  });

  it('lists only dev items one by one (Goodhart guard)', () => {
    const report = buildReport(reportInput());
    expect(report.worstItems.length).toBeGreaterThan(0);
    const devIds = new Set(
      sampleOutcomes()
        .filter((o) => o.split === 'dev')
        .map((o) => o.itemId),
    );
    for (const w of report.worstItems) expect(devIds.has(w.itemId)).toBe(true);
    const testIds = sampleOutcomes()
      .filter((o) => o.split === 'test')
      .map((o) => o.itemId);
    const md = renderMarkdown(report);
    const html = renderHtml(report);
    for (const id of testIds) {
      expect(md).not.toContain(id);
      expect(html).not.toContain(id);
    }
  });

  it('escapes HTML from the dataset and the judge in report.md: item ids, strata, reasons (issue 29)', () => {
    const outcomes = sampleOutcomes().map((o, i) =>
      o.adversarial
        ? o
        : {
            ...o,
            itemId: i === 0 ? 'item-<img src=x onerror=alert(1)>' : o.itemId,
            stratum: o.stratum === 'single-hop' ? 'single<script>alert(1)</script>' : o.stratum,
            results: o.results.map((r) =>
              r.status === 'scored'
                ? { ...r, value: i === 0 ? 0.05 : r.value, reason: 'says <script>steal()</script> & more' }
                : r,
            ),
          },
    );
    const md = renderMarkdown(buildReport(reportInput({ outcomes })));
    expect(md).toContain('says &lt;script&gt;steal()&lt;/script&gt; &amp; more');
    expect(md).toContain('single&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md).toContain('item-&lt;img src=x onerror=alert(1)&gt;');
    expect(md).not.toMatch(/<script|<img/);
  });

  it('flags no regression on an unchanged rerun and flags a degraded one on the right metrics', () => {
    const first = sampleOutcomes();
    const previous = {
      runName: 'weekly-2026-W47',
      perItem: perItemValues(first, ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall']),
      definitionVersions: DEFINITIONS,
    };
    const same = buildReport(reportInput({ previous }));
    expect(same.comparison!.regressions).toEqual([]);

    const degraded = sampleOutcomes().map((o) => ({
      ...o,
      results: o.results.map((r) =>
        r.metric === 'context_precision' && r.status === 'scored' ? scored('context_precision', r.value - 0.3) : r,
      ),
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
      const group = html.match(
        new RegExp(`<g class="metric" data-metric="${m}">(.*?)</g></g>|<g class="metric" data-metric="${m}">(.*?)</g>`),
      )![0];
      expect(group).toContain('class="bar');
      expect(group).toContain('class="whisker"');
    }
    expect(html.match(/class="threshold"/g)).toHaveLength(4);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });
});

describe('the rendered report', () => {
  const previous = {
    runName: 'weekly-2026-W47',
    perItem: perItemValues(sampleOutcomes(-0.05), [
      'faithfulness',
      'answer_relevancy',
      'context_precision',
      'context_recall',
    ]),
    definitionVersions: DEFINITIONS,
  };
  const history = [
    {
      runName: 'weekly-2026-W46',
      date: '2026-11-09T03:00:00.000Z',
      means: { faithfulness: 0.78, answer_relevancy: 0.8, context_precision: 0.7, context_recall: 0.74 },
    },
  ];
  const report = buildReport(reportInput({ previous, history }));

  it('draws the bars on the split the verdict is judged on, red exactly where the verdict names a metric', () => {
    expect(report.gate!.judgedOn).toBe('test');
    const html = renderHtml(report);
    expect(html).toContain('<svg class="chart bars" data-split="test"');
    for (const metric of report.metrics) {
      const group = new RegExp(`<g class="metric" data-metric="${metric}">.*?</g>(?=<g class="metric"|</svg>)`).exec(
        html,
      )![0];
      const drawn = Number(/<text class="value"[^>]*>([\d.]+)</.exec(group)![1]);
      expect(drawn, metric).toBe(Number(cell(report, metric, 'test')!.summary.mean!.toFixed(3)));
      const c = report.gate!.checks.find((x) => x.check === metric)!;
      const failing = c.value !== null && (c.higherIsBetter ? c.value < c.threshold : c.value > c.threshold);
      expect(group.includes('class="bar below"'), `${metric} red`).toBe(failing);
    }
    expect(cell(report, 'faithfulness', 'test')!.summary.mean).not.toBeCloseTo(
      cell(report, 'faithfulness', 'all')!.summary.mean!,
      3,
    );
  });

  it('has one comparison table: the previous run’s mean, this run’s, the change and the paired difference', () => {
    const html = renderHtml(report);
    const md = renderMarkdown(report);
    expect(html.match(/<table id="comparison">/g)).toHaveLength(1);
    expect(html).not.toContain('Baseline vs current');
    const head = /<table id="comparison"><tr>(.*?)<\/tr>/.exec(html)![1]!.replace(/<\/?th>/g, '|');
    expect(head).toBe('|Metric||weekly-2026-W47||This run||Change||Mean Δ (paired)||95% CI||n||Flag|');
    expect(md.match(/^## Change against/gm)).toHaveLength(1);
    expect(md).not.toContain('Baseline vs current');
    const row = md.split('\n').find((l) => l.startsWith('| Faithfulness |') && l.split('|').length > 8)!;
    const base = report.baseline.find((b) => b.metric === 'faithfulness')!;
    const paired = report.comparison!.perMetric.find((p) => p.metric === 'faithfulness')!.comparison;
    expect(row).toContain(`| ${base.baseline!.toFixed(3)} | ${base.current!.toFixed(3)} |`);
    expect(row).toContain(`| ${paired.n} |`);
  });

  it('speaks one language: every heading and table header of an English report is English', () => {
    const md = renderMarkdown(report);
    const headers = md
      .split('\n')
      .filter((l, i, all) => l.startsWith('#') || (l.startsWith('|') && all[i + 1]?.startsWith('|---')));
    const words =
      headers
        .join(' ')
        .replace(/weekly-\d{4}-W\d+|rag-golden/g, '')
        .match(/\p{L}+/gu) ?? [];
    expect(words.filter((w) => w !== 'Δ' && /[^\x00-\x7f]/.test(w))).toEqual([]);
    expect(md).not.toMatch(/Métrica|Umbral|Mejora|Regresión|Cambio/);
  });
});
