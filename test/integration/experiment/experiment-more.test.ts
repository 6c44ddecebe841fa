import { readFile } from 'node:fs/promises';
import { LangfuseClient } from '@langfuse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startToyRag, type ToyRag } from '@ragwatch/devkit/rag/index.js';
import { answerQuestion } from '@ragwatch/devkit/rag/answer.js';
import { startDaemon } from '../../../src/service/daemon.js';
import { openSqliteState } from '../../../src/state/index.js';
import { runJudgeStage } from '../../../src/calibrate/index.js';
import { connectExperiment } from '../../../src/experiment/edges.js';
import { runExperiment } from '../../../src/experiment/run.js';
import { START, startHarness, type Harness } from './harness.js';
import { configSchema } from '../../helpers/config.js';
import { sleep } from '../../../src/internal/index.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';

const SUBSET = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 6),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 3),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 3),
];
const NOISE = {
  experiment: {
    noise: { enabled: true, distractors: 2 },
    target: { body: { question: '{{question}}', distractors: '{{distractors}}' } },
  },
};

let judge: JudgeServer;
let rag: ToyRag;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  rag = await startToyRag();
});
afterAll(async () => {
  await rag?.close();
  await judge?.close();
});

describe('reproducibility and the noise run', () => {
  it('the same inputs and seed give a byte-identical report.json', async () => {
    const outputs: string[] = [];
    for (const personality of ['v3', 'v3'] as const) {
      const h = await startHarness(personality, { judge, rag, items: SUBSET });
      try {
        const result = await h.run({}, h.config(NOISE));
        expect(result.report.noise).not.toBeNull();
        outputs.push(await readFile(result.files.json, 'utf8'));
      } finally {
        await h.close();
      }
    }
    expect(outputs[0]).toBe(outputs[1]);
    expect(JSON.parse(outputs[0]!).runName).toBe('weekly-2026-W48');
  }, 120_000);

  it('ΔFaithfulness stays near 0 for a robust RAG and is flagged above 0.15 for one confused by distractors', async () => {
    const h = await startHarness('v4', { judge, rag, items: SUBSET });
    try {
      const healthy = await h.run({}, h.config(NOISE));
      expect(healthy.report.noise!.n).toBeGreaterThan(5);
      expect(healthy.report.noise!.flagged).toBe(false);
      expect(Math.abs(healthy.report.noise!.deltaFaithfulness!)).toBeLessThan(0.05);
      expect(rag.stats.withDistractors).toBeGreaterThan(0);
      rag.degraded = true;
      const confused = await h.run({}, h.config(NOISE));
      expect(confused.report.noise!.flagged).toBe(true);
      expect(confused.report.noise!.deltaFaithfulness!).toBeGreaterThan(0.15);
      const delta = h.langfuse.store
        .scores()
        .find((s) => s.datasetRunId === confused.datasetRunId && s.name === 'rag-noise-delta-faithfulness');
      expect(delta?.value).toBeCloseTo(confused.report.noise!.deltaFaithfulness!, 10);
    } finally {
      rag.degraded = false;
      await h.close();
    }
  }, 120_000);
});

describe('replay mode and ragwatch’s own record', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('v4', { judge, rag, items: [] });
    const client = new LangfuseClient({
      baseUrl: h.langfuse.url,
      publicKey: h.langfuse.publicKey,
      secretKey: h.langfuse.secretKey,
    });
    // A golden set with the outputs already stored: a plain string input is the question.
    for (const item of SUBSET) {
      const stored = answerQuestion(item.question, { degraded: false });
      await client.api.datasetItems.create({
        datasetName: 'rag-golden',
        id: `replay-${item.id}`,
        input: item.question,
        expectedOutput: { answer: item.reference },
        metadata: { kind: item.type, part: item.split, answer: stored.answer, contexts: stored.contexts },
      });
    }
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('scores outputs stored with the items, with configurable strata and split keys, without calling the RAG service', async () => {
    const asked = rag.stats.asked;
    const config = h.config({ experiment: { strataKey: 'kind', splitKey: 'part', target: { mode: 'replay' } } });
    const result = await h.run({}, config);
    expect(rag.stats.asked).toBe(asked);
    expect(result.report.items.total).toBe(SUBSET.length);
    expect(result.report.items.byStratum).toEqual({ adversarial: 3, 'multi-hop': 3, 'single-hop': 6 });
    expect(result.report.abstention?.n).toBe(3);
    const faithfulness = result.report.cells.find(
      (c) => c.metric === 'faithfulness' && c.split === 'all' && c.stratum === 'all',
    )!;
    expect(faithfulness.summary.n).toBeGreaterThan(5);
    const run = h.langfuse.store.experimentRuns().find((r) => r.name === result.runName)!;
    expect(run.items).toHaveLength(SUBSET.length);
  }, 120_000);

  it('--split dev runs only dev items and judges the gate on all of them', async () => {
    const config = h.config({ experiment: { strataKey: 'kind', splitKey: 'part', target: { mode: 'replay' } } });
    const result = await h.run({ split: 'dev' }, config);
    expect(Object.keys(result.report.items.bySplit)).toEqual(['dev']);
    expect(result.report.gate.judgedOn).toBe('all');
    expect(result.report.split).toBe('dev');
  }, 120_000);

  it('falls back to its own record when Langfuse cannot show the previous run’s items yet', async () => {
    const config = h.config({ experiment: { strataKey: 'kind', splitKey: 'part', target: { mode: 'replay' } } });
    h.langfuse.faults.set('GET /api/public/experiment-items', { readLagSeconds: 3600 });
    try {
      const result = await h.run({}, config);
      expect(result.historySource).toBe('state');
      expect(result.report.comparison?.previousRun).toBeDefined();
      expect(result.report.comparison?.regressions).toEqual([]);
      const recorded = await h.state.listExperimentRuns('rag-golden', 10);
      expect(recorded.map((r) => r.runName)).toContain(result.runName);
      const values = await h.state.getExperimentItemValues('rag-golden', result.runName);
      expect(Object.keys(values.faithfulness ?? {}).every((id) => id.startsWith('replay-golden-'))).toBe(true);
    } finally {
      h.langfuse.faults.clear();
    }
  }, 120_000);
});

describe('the trend of a run this state never recorded', () => {
  it('reads its means back from Langfuse (v3 lists runs without their scores), so the chart has no gap', async () => {
    const h = await startHarness('v3', { judge, rag, items: SUBSET.slice(0, 5) });
    try {
      for (const name of ['trend-1', 'trend-2', 'trend-3']) await h.run({ runName: name });
      // Another machine, or a lost state file: none of the earlier runs is in this record.
      const deps = await connectExperiment(h.config(), {
        runtime: testRuntime({ now: systemClock }),
        state: openSqliteState({ path: ':memory:' }),
        judgeStage: runJudgeStage,
      });
      const result = await runExperiment(deps, { reportsDir: h.config().experiment.reportsDir, runName: 'trend-4' });
      expect(result.report.trend.map((p) => p.runName)).toEqual(['trend-1', 'trend-2', 'trend-3', 'trend-4']);
      for (const point of result.report.trend) {
        for (const metric of result.report.metrics)
          expect(point.means[metric], `${point.runName} ${metric}`).toEqual(expect.any(Number));
      }
      const svg = /<svg class="chart trend"[\s\S]*?<\/svg>/.exec(await readFile(result.files.html, 'utf8'))![0];
      expect(svg.match(/<circle /g)).toHaveLength(4 * result.report.metrics.length);
    } finally {
      await h.close();
    }
  }, 120_000);
});

describe('the daemon’s weekly slot', () => {
  it('runs the experiment job, serves the report and publishes rag_golden_score, restored after a restart', async () => {
    const h = await startHarness('v3', { judge, rag, items: SUBSET });
    const state = openSqliteState({ path: `${h.dir}/daemon.db` });
    try {
      const config = configSchema.parse({
        ...h.config(),
        online: { enabled: false },
        experiment: { ...h.config().experiment, enabled: true, schedule: '0 3 * * 1' },
        http: {
          host: '127.0.0.1',
          port: 0,
          reportsToken: 'daemon-reports-token-0123',
          reportsSigningSecret: 'daemon-reports-secret-0123456789abcdef',
        },
        timezone: 'Europe/Madrid',
      });
      const runtime = testRuntime({ now: { now: () => START }, sleep });
      const daemon = await startDaemon({ config, runtime, state, connectBackoffMs: 10 });
      await daemon.ready;
      const next = daemon.scheduler.nextRun('experiment');
      expect(next).not.toBeNull();
      expect(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Madrid',
          weekday: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(next!),
      ).toBe('Mon 03:00');
      await daemon.scheduler.trigger('experiment');
      const base = `http://127.0.0.1:${daemon.http.port}`;
      const auth = { headers: { authorization: 'Bearer daemon-reports-token-0123' } };
      const list = await (await fetch(`${base}/reports/`, auth)).text();
      expect(list).toContain('weekly-2026-W48');
      const json = await fetch(`${base}/reports/weekly-2026-W48/report.json`, auth);
      expect(json.status).toBe(200);
      expect(((await json.json()) as { runName: string }).runName).toBe('weekly-2026-W48');
      expect((await fetch(`${base}/reports/weekly-2026-W48/report.json`)).status).toBe(401);
      // The link recorded in Langfuse opens in a browser: its path is signed.
      const recorded = h.langfuse.store.datasetRuns('rag-golden').find((r) => r.name === 'weekly-2026-W48');
      const link = new URL((recorded?.metadata as { reportUrl: string }).reportUrl);
      const page = await fetch(`${base}${link.pathname}${link.search}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect((await fetch(`${base}/reports/..%2F..%2Fetc/report.json`, auth)).status).toBe(404);
      expect((await fetch(`${base}/reports/weekly-2026-W48/state.db`, auth)).status).toBe(404);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/rag_golden_score\{metric="faithfulness",split="all"\} 1/);
      expect(metrics).toMatch(/rag_golden_score\{metric="context_recall",split="test"\} [0-9.]+/);
      expect(metrics).toMatch(/rag_golden_gate_passed \d/);
      expect((await state.getJobRun('experiment'))?.lastOutcome).toMatch(/success|gate_failed|gate_inconclusive/);
      await daemon.shutdown('test');

      const again = openSqliteState({ path: `${h.dir}/daemon.db` });
      const restarted = await startDaemon({
        config: { ...config, experiment: { ...config.experiment, enabled: false } },
        runtime,
        state: again,
        connectBackoffMs: 10,
      });
      await restarted.ready;
      const restored = await (await fetch(`http://127.0.0.1:${restarted.http.port}/metrics`)).text();
      expect(restored).toMatch(/rag_golden_score\{metric="faithfulness",split="all"\} 1/);
      await restarted.shutdown('test');
    } finally {
      await h.close();
    }
  }, 120_000);
});
