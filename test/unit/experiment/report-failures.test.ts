import { describe, expect, it } from 'vitest';
import {
  buildReport,
  perItemValues,
  renderHtml,
  renderMarkdown,
  type ItemOutcome,
} from '../../../src/experiment/report/index.js';
import { runScoresFor } from '../../../src/experiment/run-level.js';
import { goldenGaugeValues } from '../../../src/experiment/gauges.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import { DEFINITIONS, reportInput, sampleOutcomes } from '../../fixtures/experiment/report-input.js';

const failed = (metric: MetricResult['metric'], kind: string): MetricResult => ({
  metric,
  status: 'failed',
  error: `${kind}: x`,
  kind,
  dependency: 'judge',
  retryable: true,
});

/** item-00 (dev): context precision failed; item-01 (test): faithfulness failed; item-02 (dev): the RAG service failed; item-16 (adversarial, dev): abstention failed; item-04 (dev): the noise pass failed. */
function withFailures(): ItemOutcome[] {
  return sampleOutcomes().map((o) => {
    if (o.itemId === 'item-00')
      return {
        ...o,
        results: o.results.map((r) =>
          r.metric === 'context_precision' ? failed('context_precision', 'schema_mismatch') : r,
        ),
      };
    if (o.itemId === 'item-01')
      return {
        ...o,
        results: o.results.map((r) => (r.metric === 'faithfulness' ? failed('faithfulness', 'http_500') : r)),
      };
    if (o.itemId === 'item-02')
      return { ...o, results: [], targetError: 'RAG service answered HTTP 400', targetErrorKind: 'http_400' };
    if (o.itemId === 'item-16') return { ...o, abstained: null, abstentionFailure: 'timeout' };
    if (o.itemId === 'item-04') return { ...o, noiseFailure: 'connection' };
    return o;
  });
}

describe('failures in the report', () => {
  it('are listed per metric: kinds counted, dev items by id, test items only counted; the other results stand', () => {
    const report = buildReport(reportInput({ outcomes: withFailures(), maxFailedShare: 0.25 }));
    expect(report.status).toBe('complete');
    expect(report.failures).toMatchObject({ items: 5, maxShare: 0.25 });
    expect(report.failures.share).toBeCloseTo(5 / 24, 12);
    const rows = Object.fromEntries(report.failures.rows.map((r) => [r.what, r]));
    expect(rows.context_precision).toEqual({
      what: 'context_precision',
      count: 1,
      kinds: { schema_mismatch: 1 },
      devItems: ['item-00'],
      otherItems: 0,
    });
    expect(rows.faithfulness).toEqual({
      what: 'faithfulness',
      count: 1,
      kinds: { http_500: 1 },
      devItems: [],
      otherItems: 1,
    });
    expect(rows.rag_service).toMatchObject({ count: 1, kinds: { http_400: 1 }, devItems: ['item-02'] });
    expect(rows.abstention).toMatchObject({ count: 1, kinds: { timeout: 1 }, devItems: ['item-16'] });
    expect(rows.noise_faithfulness).toMatchObject({ count: 1, kinds: { connection: 1 }, devItems: ['item-04'] });
    expect(report.items.failed).toBe(5);
    // item-00's other metrics are still in the means.
    expect(
      report.cells.find((c) => c.metric === 'faithfulness' && c.split === 'dev' && c.stratum === 'all')!.summary.n,
    ).toBe(7);
    const md = renderMarkdown(report);
    const html = renderHtml(report);
    for (const text of [md, html]) {
      expect(text).toContain('Failures');
      expect(text).toContain('item-00');
      expect(text).toContain('schema_mismatch');
      expect(text).not.toContain('item-01');
    }
  });

  it('says no item failed when none did', () => {
    const report = buildReport(reportInput());
    expect(report.failures).toEqual({ items: 0, share: 0, maxShare: 0.1, rows: [] });
    expect(renderMarkdown(report)).toContain('## Failures\n\nNo item failed.');
  });

  it('the gate says on how many items it was decided, with each metric’s scored and failed items', () => {
    const report = buildReport(reportInput({ outcomes: withFailures() }));
    // The gate is judged on the 8 scored test items; item-01's faithfulness failed.
    expect(report.gate!.decidedOn.items).toBe(8);
    expect(report.gate!.decidedOn.perMetric.faithfulness).toEqual({ scored: 7, notScorable: 0, failed: 1 });
    expect(report.gate!.decidedOn.perMetric.context_recall).toEqual({ scored: 8, notScorable: 0, failed: 0 });
    expect(renderMarkdown(report)).toMatch(/decided on 8 items \(scored: faithfulness 7 \(1 failed\)/);
  });
});

describe('an incomplete run', () => {
  const incomplete = { reason: 'judge unreachable after retries', dependency: 'judge', itemsNotRun: 9 };

  it('has no gate verdict, no diagnosis, no trend point, and says why in every format', () => {
    const report = buildReport(
      reportInput({ incomplete, history: [{ runName: 'w47', date: '2026-11-16T03:00:00.000Z', means: {} }] }),
    );
    expect(report.status).toBe('incomplete');
    expect(report.incomplete).toEqual(incomplete);
    expect(report.gate).toBeNull();
    expect(report.diagnosis).toBeNull();
    expect(report.trend.map((t) => t.runName)).toEqual(['w47']);
    const md = renderMarkdown(report);
    expect(md).toContain('**Incomplete run:** judge unreachable after retries. 9 items not run');
    expect(md).toContain('## Verdict: none (incomplete run)');
    expect(renderHtml(report)).toContain('id="incomplete"');
    expect(runScoresFor(report, 'ragas-', 'rag-abstention').some((s) => s.name === 'rag-gate')).toBe(false);
    expect(goldenGaugeValues(report)).not.toHaveProperty('rag_golden_gate_passed');
  });
});

describe('comparison across a metric definition change', () => {
  it('shows the change instead of flagging a regression; metrics with the same definition are still compared', () => {
    const previousOutcomes = sampleOutcomes(0.3);
    const previous = {
      runName: 'weekly-2026-W47',
      perItem: perItemValues(previousOutcomes, [
        'faithfulness',
        'answer_relevancy',
        'context_precision',
        'context_recall',
      ]),
      // A run from before definition versions were recorded: every metric is definition 1, except faithfulness.
      definitionVersions: { faithfulness: '2' },
    };
    const report = buildReport(reportInput({ previous }));
    const rows = Object.fromEntries(report.comparison!.perMetric.map((p) => [p.metric, p]));
    expect(rows.answer_relevancy!.definitionChange).toEqual({ previous: '1', current: '2' });
    expect(rows.answer_relevancy!.comparison.regression).toBe(false);
    expect(rows.faithfulness!.definitionChange).toBeNull();
    // Everything dropped by 0.3: only faithfulness, whose definition did not change, is a regression.
    expect(report.comparison!.regressions).toEqual(['faithfulness']);
    const md = renderMarkdown(report);
    expect(md).toContain('definition changed (1 → 2): not compared');
    expect(renderHtml(report)).toContain('definition changed (1 → 2): not compared');
    const same = buildReport(reportInput({ previous: { ...previous, definitionVersions: DEFINITIONS } }));
    expect(same.comparison!.regressions).toEqual([
      'faithfulness',
      'answer_relevancy',
      'context_precision',
      'context_recall',
    ]);
  });
});
