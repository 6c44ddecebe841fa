import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { ExperimentIncompleteError } from '../../../src/experiment/errors.js';
import type { ExperimentReport } from '../../../src/experiment/report/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { startHarness, type Harness } from './harness.js';

/**
 * One item's trouble is that item's failure; only an outage or too many failed items stop the run, and then the
 * report is still written (incomplete, no verdict) and Langfuse holds no run item pointing at a missing trace.
 */
const SUBSET = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 8),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 4),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 3),
];

let h: Harness | undefined;
let judge: JudgeServer | undefined;
afterEach(async () => {
  await h?.close();
  await judge?.close();
  h = undefined;
  judge = undefined;
});

/** The run's items as the Langfuse stand-in holds them: v3 run items, or v4 experiment item root spans. */
function runOf(harness: Harness, runName: string) {
  if (harness.langfuse.personality === 'v3') {
    const run = harness.langfuse.store.datasetRuns('rag-golden').find((r) => r.name === runName);
    return run ? { metadata: run.metadata as Record<string, unknown>, items: run.items } : null;
  }
  const run = harness.langfuse.store.experimentRuns().find((r) => r.name === runName);
  return run ? { metadata: run.metadata as Record<string, unknown>, items: run.items } : null;
}

/** Every run item links a trace Langfuse has. */
function expectNothingDangling(harness: Harness, runName: string): number {
  const run = runOf(harness, runName);
  for (const item of run?.items ?? [])
    expect(harness.langfuse.store.getTrace(item.traceId), `trace of ${item.datasetItemId}`).toBeDefined();
  return run?.items.length ?? 0;
}

async function cliConfig(harness: Harness, name: string, extra = '', targetExtra = ''): Promise<string> {
  const file = join(harness.dir, `${name}.yaml`);
  const response = '{answer: answer, contexts: contexts, traceId: traceId}';
  const target = `  target: {url: "${harness.rag.askUrl}", response: ${response}, maxAttempts: 2${targetExtra}}`;
  await writeFile(
    file,
    `${harness.yaml(extra)}\nexperiment:\n  reportsDir: ${join(harness.dir, 'reports')}\n  bootstrapSamples: 200\n${target}\n`,
  );
  return file;
}

const readReport = async (harness: Harness, runName: string): Promise<ExperimentReport> =>
  JSON.parse(await readFile(join(harness.dir, 'reports', runName, 'report.json'), 'utf8')) as ExperimentReport;

describe.each([
  { personality: 'v3' as const, ragTraces: true },
  { personality: 'v4' as const, ragTraces: false },
])('against a judge that answers anything its schema allows ($personality)', ({ personality, ragTraces }) => {
  it('experiment run completes the demo golden set: exit 0, 1 or 4 (a verdict), three reports, every item linked to an existing trace with its scores', async () => {
    judge = await startJudgeServer({ fuzz: { seed: personality === 'v3' ? 3 : 4 } });
    h = await startHarness(personality, { judge, ragTraces });
    const result = await runCli(['--config', await cliConfig(h, 'fuzz'), 'experiment', 'run', '--run-name', 'fuzzed'], {
      cwd: h.dir,
      timeoutMs: 200_000,
    });
    // 4: not enough evidence (the demo set's test split is below experiment.gate.minItems): a verdict all the same.
    expect([0, 1, 4], result.stderr).toContain(result.code);
    for (const ext of ['md', 'html', 'json'])
      expect(existsSync(join(h.dir, 'reports', 'fuzzed', `report.${ext}`))).toBe(true);
    const report = await readReport(h, 'fuzzed');
    expect(report.status).toBe('complete');
    expect(report.items.total).toBe(GOLDEN_ITEMS.length);
    // Every answer was schema-valid: nothing failed, unless the fuzzer's draw outgrew max_tokens on every attempt
    // (then the judge cut it off: not an instance of the schema).
    for (const row of report.failures.rows) expect(Object.keys(row.kinds), row.what).toEqual(['truncated']);
    expect(judge.fuzzStats()!.chatAnswers).toBeGreaterThan(GOLDEN_ITEMS.length);
    expect(expectNothingDangling(h, 'fuzzed')).toBe(GOLDEN_ITEMS.length);
    // Each scored result is a score on its item's trace: as many scores as the report's n's.
    const traces = new Set(runOf(h, 'fuzzed')!.items.map((i) => i.traceId));
    const scores = h.langfuse.store.scores().filter((s) => s.traceId && traces.has(s.traceId));
    const scoredResults = report.metrics.reduce(
      (n, m) => n + report.cells.find((c) => c.metric === m && c.split === 'all' && c.stratum === 'all')!.summary.n,
      0,
    );
    expect(scores).toHaveLength(scoredResults + (report.abstention?.n ?? 0));
  }, 240_000);

  it('the judge refusing connections mid-run: exit 3, an incomplete report without verdict, no dangling run item', async () => {
    judge = await startJudgeServer();
    h = await startHarness(personality, { judge, ragTraces, items: SUBSET });
    const server = judge;
    const watcher = setInterval(() => {
      if (server.requests.length >= 40) void server.close();
    }, 2);
    let result;
    try {
      // One item at a time, so the items before the 40th request are done when the judge goes away.
      const judgeLine = `judge: {baseUrl: "${server.url}", model: ${server.model}, maxAttempts: 2, timeoutMs: 20000, concurrency: 1}`;
      const config = await cliConfig(h, 'refused', judgeLine, ', concurrency: 1');
      result = await runCli(['--config', config, 'experiment', 'run', '--run-name', 'refused'], {
        cwd: h.dir,
        timeoutMs: 200_000,
      });
    } finally {
      clearInterval(watcher);
    }
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('judge unreachable');
    expect(result.stderr).toContain('report (incomplete)');
    const report = await readReport(h, 'refused');
    expect(report).toMatchObject({ status: 'incomplete', gate: null, incomplete: { dependency: 'judge' } });
    expect(report.incomplete!.itemsNotRun).toBeGreaterThan(0);
    expect(report.items.total + report.incomplete!.itemsNotRun).toBe(SUBSET.length);
    expect(await readFile(join(h.dir, 'reports', 'refused', 'report.md'), 'utf8')).toContain(
      '## Verdict: none (incomplete run)',
    );
    // The items that finished before the outage are recorded, in a run marked incomplete, each with its trace.
    expect(expectNothingDangling(h, 'refused')).toBe(report.items.total);
    expect(report.items.total).toBeGreaterThan(0);
    expect(runOf(h, 'refused')!.metadata.incomplete).toBe(true);
  }, 240_000);
});

describe('one item’s trouble is that item’s failure', () => {
  it('a metric that fails persistently for one item: exit 0, 1 or 4, the failure in the report, the item’s other scores kept', async () => {
    h = await startHarness('v3', { items: SUBSET });
    const victim = SUBSET[0]!;
    // Every answer about this item's context precision is unusable, on every retry.
    h.judge.script.answer({
      schema: 'ragwatch_context_precision',
      match: victim.question.slice(0, 40),
      raw: '{"chunks": [',
    });
    const result = await runCli(
      ['--config', await cliConfig(h, 'one-bad'), 'experiment', 'run', '--run-name', 'one-bad'],
      { cwd: h.dir, timeoutMs: 200_000 },
    );
    // 4: not enough evidence (the demo set's test split is below experiment.gate.minItems): a verdict all the same.
    expect([0, 1, 4], result.stderr).toContain(result.code);
    expect(result.stdout).toContain('failed: context_precision on 1 item (invalid_json)');
    const report = await readReport(h, 'one-bad');
    expect(report.status).toBe('complete');
    const row = report.failures.rows.find((r) => r.what === 'context_precision')!;
    expect(row).toMatchObject({ count: 1, kinds: { invalid_json: 1 } });
    expect(victim.split === 'dev' ? row.devItems : row.otherItems).toEqual(victim.split === 'dev' ? [victim.id] : 1);
    const trace = runOf(h, 'one-bad')!.items.find((i) => i.datasetItemId === victim.id)!.traceId;
    const names = h.langfuse.store.scores({ traceId: trace }).map((s) => s.name);
    expect(names).toContain('ragas-faithfulness');
    expect(names).not.toContain('ragas-context-precision');
    expect(report.gate!.decidedOn.items).toBeGreaterThan(0);
  }, 240_000);

  it('a failed abstention judgement and a failed noise-pass answer are their items’ failures', async () => {
    h = await startHarness('v4', { items: SUBSET });
    const adversarial = SUBSET.find((i) => i.type === 'adversarial')!;
    h.judge.script.answer({ schema: 'ragwatch_abstention', match: adversarial.question.slice(0, 30), raw: 'no' });
    const config = h.config({
      experiment: {
        noise: { enabled: true, distractors: 2 },
        maxFailedShare: 0.95,
        target: { body: { question: '{{question}}', distractors: '{{distractors}}' } },
      },
    });
    // Once every item has had its clean answer, the RAG service rejects the noise-pass requests (400: each item's failure).
    const rag = h.rag;
    const watcher = setInterval(() => {
      if (rag.stats.asked >= SUBSET.length) rag.failWith = 400;
    }, 1);
    let result;
    try {
      result = await h.run({}, config);
    } finally {
      clearInterval(watcher);
      rag.failWith = null;
    }
    const rows = Object.fromEntries(result.report.failures.rows.map((r) => [r.what, r]));
    expect(rows.abstention).toMatchObject({ count: 1, kinds: { invalid_json: 1 } });
    expect(result.report.abstention!.n).toBe(SUBSET.filter((i) => i.type === 'adversarial').length - 1);
    expect(rows.noise_faithfulness).toMatchObject({ kinds: { http_400: rows.noise_faithfulness!.count } });
    expect(rows.noise_faithfulness!.count).toBeGreaterThan(5);
    // The clean results of those items stand.
    expect(
      result.report.cells.find((c) => c.metric === 'faithfulness' && c.split === 'all' && c.stratum === 'all')!.summary
        .n,
    ).toBeGreaterThan(5);
    expect(result.report.status).toBe('complete');
  }, 240_000);
});

describe('too many failed items', () => {
  it('exceeding experiment.maxFailedShare: incomplete (exit 3 path), report written, and never the next run’s baseline', async () => {
    h = await startHarness('v3', { items: SUBSET });
    const baseline = await h.run({ runName: 'baseline' });
    expect(baseline.report.status).toBe('complete');
    h.judge.script.answer({ schema: 'ragwatch_context_precision', raw: 'not json' });
    const error = await h.run({ runName: 'broken' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExperimentIncompleteError);
    const incomplete = error as ExperimentIncompleteError;
    expect(incomplete.dependency).toBeNull();
    expect(incomplete.message).toMatch(/items failed after retries, more than experiment\.maxFailedShare \(0\.1\)/);
    const report = JSON.parse(await readFile(incomplete.report!.json, 'utf8')) as ExperimentReport;
    expect(report).toMatchObject({
      status: 'incomplete',
      gate: null,
      incomplete: { dependency: null, itemsNotRun: 0 },
    });
    expect(report.failures.rows[0]).toMatchObject({ what: 'context_precision', count: SUBSET.length - 3 });
    expect(runOf(h, 'broken')!.metadata.incomplete).toBe(true);
    expectNothingDangling(h, 'broken');
    h.judge.script.clear();
    const next = await h.run({ runName: 'next' });
    expect(next.report.comparison?.previousRun).toBe('baseline');
    expect(next.report.trend.map((t) => t.runName)).toEqual(['baseline', 'next']);
  }, 240_000);

  it('the RAG service going down mid-run: incomplete with the report of the items that finished', async () => {
    h = await startHarness('v4', { items: SUBSET });
    const rag = h.rag;
    const watcher = setInterval(() => {
      if (rag.stats.asked >= 5) rag.failWith = 503;
    }, 1);
    let error: unknown;
    try {
      error = await h.run({ runName: 'rag-down' }).catch((e: unknown) => e);
    } finally {
      clearInterval(watcher);
      rag.failWith = null;
    }
    expect(error).toBeInstanceOf(ExperimentIncompleteError);
    expect((error as ExperimentIncompleteError).dependency).toBe('rag');
    const report = JSON.parse(
      await readFile((error as ExperimentIncompleteError).report!.json, 'utf8'),
    ) as ExperimentReport;
    expect(report.status).toBe('incomplete');
    expect(report.items.total).toBeGreaterThanOrEqual(1);
    // The items the RAG service failed on before it counted as down are the outage's, not failures.
    expect(report.failures.rows.find((r) => r.what === 'rag_service')).toBeUndefined();
    expect(report.items.total + report.incomplete!.itemsNotRun).toBe(SUBSET.length);
    expectNothingDangling(h, 'rag-down');
  }, 240_000);
});

describe('metric definitions across runs', () => {
  it('a previous run scored under another definition is shown as a definition change, not a regression', async () => {
    h = await startHarness('v3', { items: SUBSET });
    const first = await h.run({ runName: 'old-definitions' });
    expect(runOf(h, 'old-definitions')!.metadata.definitionVersions).toEqual(first.report.run.definitionVersions);
    // As a run recorded before answer relevancy's definition 2 would look (Langfuse v3 updates a run's metadata
    // with each run item posted to it).
    const stored = runOf(h, 'old-definitions')!;
    h.langfuse.store.recordDatasetRunItem({
      runName: 'old-definitions',
      metadata: {
        ...stored.metadata,
        definitionVersions: { ...first.report.run.definitionVersions, answer_relevancy: '1' },
      },
      datasetItemId: stored.items[0]!.datasetItemId,
      traceId: stored.items[0]!.traceId,
    });
    const second = await h.run({ runName: 'new-definitions' });
    const row = second.report.comparison!.perMetric.find((p) => p.metric === 'answer_relevancy')!;
    expect(row.definitionChange).toEqual({ previous: '1', current: '2' });
    expect(second.report.comparison!.perMetric.find((p) => p.metric === 'faithfulness')!.definitionChange).toBeNull();
    expect(await readFile(second.files.markdown, 'utf8')).toContain('definition changed (1 → 2): not compared');
  }, 240_000);
});
