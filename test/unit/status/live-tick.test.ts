import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobCatalogue } from '../../../src/commands/status.js';
import { ONLINE_JOB, onlineSettingsFrom, runOnlineTick } from '../../../src/online/job.js';
import type { SampleScorer } from '../../../src/online/ports.js';
import { openStateReadOnly } from '../../../src/state/queries/read-only.js';
import { buildStatusReport, type StatusReport } from '../../../src/state/queries/status-report.js';
import type { StateStore } from '../../../src/state/types.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import { FakeLangfuse, jobDeps, ManualClock, type FakeTrace } from '../online/fakes.js';
import { MIN, tempState } from './helpers.js';
import { parseConfig } from '../../helpers/config.js';

/**
 * `status` against a state the real online tick writes: a tick in progress shows as running under the
 * lease it holds, and a dead trace that `retry-dead` re-queues is taken by the next tick.
 */

const NOW = Date.parse('2025-06-07T12:00:00Z');
const config = parseConfig({ sampling: { rate: 1 }, online: { maxAttempts: 1, retryBackoffSeconds: 60 } });
const settings = onlineSettingsFrom(config);

let tmp: ReturnType<typeof tempState>;
let store: StateStore;
beforeEach(() => {
  tmp = tempState();
  store = tmp.open();
});
afterEach(async () => {
  await store.close();
  tmp.cleanup();
});

function traces(n: number): FakeTrace[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `t-${i + 1}`,
    name: 'rag-query',
    timestamp: NOW - 40 * MIN + i * MIN,
    rag: i !== 2,
  }));
}

function status(now: number): StatusReport {
  const ro = openStateReadOnly(tmp.path);
  try {
    return buildStatusReport(ro, {
      path: tmp.path,
      now,
      days: 1,
      basis: 'sampled',
      timezone: 'UTC',
      jobs: jobCatalogue(config),
      langfuseSetting: 'auto',
    });
  } finally {
    ro?.close();
  }
}

const scored = (metric: MetricResult['metric']): MetricResult => ({
  metric,
  status: 'scored',
  value: 0.7,
  reason: 'ok',
  details: {},
  usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
  promptVersion: 'p1',
});

describe('status beside a real online tick', () => {
  it('shows the tick running, with the lease it holds, until it finishes', async () => {
    const clock = new ManualClock(NOW);
    let entered!: () => void;
    const inScorer = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const score: SampleScorer = async (_sample, metrics) => {
      entered();
      await gate;
      return metrics.map(scored);
    };
    const deps = jobDeps(new FakeLangfuse(traces(3)), clock, { state: store, score });
    const tick = runOnlineTick(deps, settings);
    await inScorer;
    clock.advance(30_000);
    const during = status(clock.now()).jobs.find((j) => j.name === ONLINE_JOB)!;
    expect(during).toMatchObject({
      state: 'running',
      runningSeconds: 30,
      lastStartAt: new Date(NOW).toISOString(),
      lease: { holder: deps.holder.id, pid: deps.holder.pid },
    });
    release();
    expect((await tick).outcome).toBe('success');
    const after = status(clock.now());
    expect(after.jobs.find((j) => j.name === ONLINE_JOB)).toMatchObject({
      state: 'idle',
      lastOutcome: 'success',
      lease: null,
      lastSuccessAt: new Date(clock.now()).toISOString(),
    });
    expect(after.days.rows[0]).toMatchObject({ day: '2025-06-07', sampled: 3, done: 2, skipped: 1 });
    expect(after.cursors.map((c) => c.job)).toEqual([ONLINE_JOB]);
    expect(after.gauges).toMatchObject({ rag_faithfulness_score: 0.7 });
  });

  it('re-queued dead traces are taken by the next tick and end done', async () => {
    const clock = new ManualClock(NOW);
    let judgeBroken = true;
    const score: SampleScorer = async (sample, metrics) =>
      metrics.map((metric) =>
        judgeBroken && sample.traceId === 't-2'
          ? {
              metric,
              status: 'failed' as const,
              error: 'invalid_json: the judge answered something else',
              kind: 'invalid_json',
              dependency: 'judge' as const,
              retryable: false,
            }
          : scored(metric),
      );
    const lf = new FakeLangfuse(traces(3));
    const deps = jobDeps(lf, clock, {
      state: store,
      score,
      probes: { judge: async () => true, langfuse: async () => true },
    });
    const first = await runOnlineTick(deps, settings);
    expect(first.dead).toBe(1);
    expect(status(clock.now()).dead).toMatchObject({
      count: 1,
      shown: [{ traceId: 't-2', attempts: 1, lastError: 'metric:faithfulness:invalid_json' }],
    });

    clock.advance(5 * MIN);
    expect((await runOnlineTick(deps, settings)).taken).toBe(0);
    expect(await store.requeueDead({}, clock.now())).toEqual(['t-2']);
    expect(status(clock.now()).totals).toMatchObject({ pending: 1, dead: 0 });

    judgeBroken = false;
    clock.advance(5 * MIN);
    const next = await runOnlineTick(deps, settings);
    expect(next.taken).toBe(1);
    expect(await store.getEntry('t-2')).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect([...lf.scores.values()].filter((s) => s.traceId === 't-2')).toHaveLength(2);
    expect(status(clock.now()).totals).toMatchObject({ entries: 3, done: 2, skipped: 1, dead: 0, pending: 0 });
  });
});
