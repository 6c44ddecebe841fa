import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import type { ExperimentResult } from '../../../src/experiment/run.js';
import { startHarness, type Harness } from './harness.js';

const METRIC_SCORES = [
  'ragas-answer-relevancy',
  'ragas-context-precision',
  'ragas-context-recall',
  'ragas-faithfulness',
];
const adversarial = new Set(GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').map((i) => i.id));

/** The dataset run as the stand-in holds it: v3 run items, or v4 experiment item root spans. */
function runItems(h: Harness, runName: string) {
  if (h.langfuse.personality === 'v3') {
    const run = h.langfuse.store.datasetRuns('rag-golden').find((r) => r.name === runName);
    return run ? { id: run.id, metadata: run.metadata as Record<string, unknown>, items: run.items } : null;
  }
  const run = h.langfuse.store.experimentRuns().find((r) => r.name === runName);
  return run ? { id: run.id, metadata: run.metadata as Record<string, unknown>, items: run.items } : null;
}

describe.each([
  { personality: 'v3' as const, ragTraces: true },
  { personality: 'v4' as const, ragTraces: false },
])('weekly experiment against the $personality stand-in (service traces: $ragTraces)', ({ personality, ragTraces }) => {
  let h: Harness;
  let baseline: ExperimentResult;

  beforeAll(async () => {
    h = await startHarness(personality, { ragTraces });
    baseline = await h.run();
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('records one dataset run with a run item per item, each linked to a trace carrying its scores', () => {
    expect(baseline.runName).toBe('weekly-2026-W48');
    const run = runItems(h, baseline.runName)!;
    expect(run).not.toBeNull();
    expect(run.items).toHaveLength(GOLDEN_ITEMS.length);
    expect(new Set(run.items.map((i) => i.datasetItemId))).toEqual(new Set(GOLDEN_ITEMS.map((i) => i.id)));
    expect(new Set(run.items.map((i) => i.traceId)).size).toBe(GOLDEN_ITEMS.length);
    expect(baseline.datasetRunId).toBe(run.id);
    let withFour = 0;
    for (const item of run.items) {
      const trace = h.langfuse.store.getTrace(item.traceId);
      expect(trace, `trace of ${item.datasetItemId}`).toBeDefined();
      const names = h.langfuse.store
        .scores({ traceId: item.traceId })
        .map((s) => s.name)
        .sort();
      if (adversarial.has(item.datasetItemId)) {
        expect(names).toEqual(['rag-abstention']);
      } else {
        for (const score of h.langfuse.store.scores({ traceId: item.traceId }))
          expect((score.metadata as { definitionVersion?: string }).definitionVersion).toBe('2');
        for (const name of names) expect(METRIC_SCORES).toContain(name);
        if (names.length === 4) withFour++;
      }
    }
    // Faithfulness is not scorable for an answer without claims (the toy RAG's abstentions).
    expect(withFour).toBeGreaterThanOrEqual(GOLDEN_ITEMS.length - adversarial.size - 5);
    expect(baseline.scoresWritten).toBeGreaterThanOrEqual(withFour * 4 + adversarial.size);
  });

  it('links the service’s own trace when it reports one, else a trace ragwatch creates with question, answer and contexts', () => {
    const run = runItems(h, baseline.runName)!;
    const item = run.items.find((i) => i.datasetItemId === GOLDEN_ITEMS[0]!.id)!;
    const trace = h.langfuse.store.getTrace(item.traceId)!;
    if (ragTraces) {
      expect(trace.name).not.toBe('ragwatch-experiment');
      expect(h.langfuse.store.observationsOfTrace(item.traceId).some((o) => o.name === 'retrieve')).toBe(true);
    } else {
      expect(trace.name).toBe('ragwatch-experiment');
      expect(JSON.stringify(trace.input)).toContain(GOLDEN_ITEMS[0]!.question.slice(0, 20));
      const output = JSON.stringify(trace.output);
      expect(output).toContain('answer');
      expect(output).toContain('contexts');
    }
  });

  it('puts run metadata and run-level scores (means and the gate verdict) on the dataset run', () => {
    const run = runItems(h, baseline.runName)!;
    expect(run.metadata).toMatchObject({
      source: 'ragwatch',
      judgeModel: h.judge.model,
      dataset: 'rag-golden',
      split: 'all',
    });
    for (const key of [
      'ragwatchVersion',
      'promptVersions',
      'definitionVersions',
      'thresholds',
      'configHash',
      'reportUrl',
    ])
      expect(run.metadata).toHaveProperty(key);
    expect(run.metadata).not.toHaveProperty('incomplete');
    expect(String(run.metadata.reportUrl)).toMatch(/\/reports\/weekly-2026-W48\/report\.html$/);
    const runScores = h.langfuse.store.scores().filter((s) => s.datasetRunId === run.id);
    const byName = new Map(runScores.map((s) => [s.name, s.value]));
    for (const name of [...METRIC_SCORES, 'rag-gate', 'rag-abstention']) expect(byName.has(name), name).toBe(true);
    expect(byName.get('rag-gate')).toBe(1);
    const faithfulness = baseline.report.cells.find(
      (c) => c.metric === 'faithfulness' && c.split === 'all' && c.stratum === 'all',
    )!;
    expect(byName.get('ragas-faithfulness')).toBeCloseTo(faithfulness.summary.mean!, 10);
  });

  it('writes report.md, report.html and report.json, and the JSON parses back to the report', async () => {
    expect(baseline.passed).toBe(true);
    const json = JSON.parse(await readFile(baseline.files.json, 'utf8'));
    expect(json).toEqual(JSON.parse(JSON.stringify(baseline.report)));
    expect(json.gate).toMatchObject({ passed: true, judgedOn: 'test' });
    expect(json.gate.decidedOn.items).toBe(
      GOLDEN_ITEMS.filter((i) => i.split === 'test' && i.type !== 'adversarial').length,
    );
    // The normal stand-in: no item failed, and the report says so.
    expect(json).toMatchObject({ status: 'complete', incomplete: null, failures: { items: 0, rows: [] } });
    expect(json.run.definitionVersions).toMatchObject({
      faithfulness: '2',
      answer_relevancy: '2',
      context_precision: '2',
      context_recall: '2',
    });
    expect(json.items.total).toBe(GOLDEN_ITEMS.length);
    expect(json.abstention.n).toBe(adversarial.size);
    expect(
      json.worstItems.every((w: { itemId: string }) => GOLDEN_ITEMS.find((i) => i.id === w.itemId)?.split === 'dev'),
    ).toBe(true);
    const md = await readFile(baseline.files.markdown, 'utf8');
    expect(md).toContain('weekly-2026-W48');
    expect(md).toContain('## Failures\n\nNo item failed.');
    const html = await readFile(baseline.files.html, 'utf8');
    expect(html).toContain('<svg');
  });

  it('an unchanged rerun gets the next name and flags no regression', async () => {
    const rerun = await h.run();
    expect(rerun.runName).toBe('weekly-2026-W48-2');
    expect(rerun.historySource).toBe('langfuse');
    expect(rerun.report.comparison?.previousRun).toBe('weekly-2026-W48');
    expect(rerun.report.comparison?.regressions).toEqual([]);
    for (const m of rerun.report.comparison!.perMetric) expect(m.comparison.n).toBeGreaterThan(40);
    expect(rerun.passed).toBe(true);
    expect(rerun.report.trend.map((t) => t.runName)).toEqual(['weekly-2026-W48', 'weekly-2026-W48-2']);
  }, 240_000);

  it('a degraded RAG is flagged on faithfulness and on retrieval, and fails the gate', async () => {
    h.rag.degraded = true;
    try {
      const degraded = await h.run();
      expect(degraded.runName).toBe('weekly-2026-W48-3');
      expect(degraded.passed).toBe(false);
      expect(degraded.report.comparison?.previousRun).toBe('weekly-2026-W48-2');
      expect(degraded.report.comparison?.regressions).toEqual(
        expect.arrayContaining(['faithfulness', 'context_precision', 'context_recall']),
      );
      expect(degraded.outcome).toBe('failed');
      expect(degraded.report.gate.lines.join('\n')).toMatch(
        /faithfulness: 0\.\d+ \[0\.\d+, 0\.\d+\], n = 26, threshold ≥ 0\.85: failed/,
      );
      expect(degraded.report.diagnosis?.status).toBe('compound_failure');
      const gate = h.langfuse.store
        .scores()
        .find((s) => s.datasetRunId === degraded.datasetRunId && s.name === 'rag-gate');
      expect(gate?.value).toBe(0);
    } finally {
      h.rag.degraded = false;
    }
  }, 240_000);
});
