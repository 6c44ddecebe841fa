import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LangfuseApiError, scoreIdFor } from '../../../src/langfuse/index.js';
import { BACKFILL_JOB, ONLINE_JOB, runBackfill, runOnlineTick } from '../../../src/online/job.js';
import { planOnlineTick } from '../../../src/online/plan.js';
import { noopRecorder } from '../../../src/online/ports.js';
import { MEANS_EVERY } from '../../../src/online/tick-run.js';
import { ManualTimers } from '../../helpers/manual-timers.js';
import { FakeLangfuse, fakeScorer, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;

const settings = testSettings;

/** Independent of the code under test: the formula from the issue, with BigInt. */
function expectedSampled(ids: string[], rate: number, salt = 'ragwatch-sampling-v1'): string[] {
  return ids.filter((id) => {
    const top = createHash('sha256').update(`${salt}\0${id}`).digest().readBigUInt64BE(0) >> 11n;
    return Number(top) / 2 ** 53 < rate;
  });
}

function traces(n: number, start = NOW - 70 * MIN, spanMs = 60 * MIN): FakeTrace[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `trace-${String(i + 1).padStart(4, '0')}`,
    name: 'rag-query',
    timestamp: start + Math.floor((i * spanMs) / n),
    rag: i % 5 !== 4,
  }));
}

describe('runOnlineTick', () => {
  it('publishes the score gauges while a long run drains a backlog, not only at its end', async () => {
    const all = traces(450).map((t) => ({ ...t, rag: true }));
    const lf = new FakeLangfuse(all);
    const published: Array<{ scoresWritten: number; means: Record<string, number | undefined> }> = [];
    const recorder = {
      ...noopRecorder,
      scoreMeans: (means: Record<string, number | undefined>) =>
        void published.push({ scoresWritten: lf.scores.size, means }),
    };
    const deps = jobDeps(lf, new ManualClock(NOW), { recorder });
    const report = await runOnlineTick(
      deps,
      settings({
        sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} },
        caps: { maxPerTick: 10_000, maxPerHour: 10_000 },
      }),
    );
    expect(report.evaluated).toBe(450);
    // Every MEANS_EVERY traces scored, then once at the end: the first while most of the backlog was still to do.
    expect(published.length).toBe(Math.floor(450 / MEANS_EVERY) + 1);
    expect(published[0]!.scoresWritten).toBeLessThan(2 * 450);
    expect(published[0]!.means.faithfulness).toBeCloseTo(0.8, 12);
    expect(published.at(-1)!.means).toEqual(report.means);
  });

  it('scores exactly the sampled RAG traces once per metric, skips the rest with a reason, and is idempotent', async () => {
    const all = traces(400);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    const report = await runOnlineTick(deps, settings());

    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    );
    expect(report.outcome).toBe('success');
    expect(report.listed).toBe(400);
    expect(report.sampled).toBe(sampled.length);
    const rag = sampled.filter((id) => all.find((t) => t.id === id)!.rag);
    const nonRag = sampled.filter((id) => !rag.includes(id));
    expect(report.evaluated).toBe(rag.length);
    expect(report.skipped).toEqual(nonRag.length ? { no_contexts: nonRag.length } : {});
    expect(nonRag.length).toBeGreaterThan(0);

    const expectedIds = rag
      .flatMap((id) => [scoreIdFor(id, 'ragas-faithfulness'), scoreIdFor(id, 'ragas-answer-relevancy')])
      .sort();
    expect([...lf.scores.keys()].sort()).toEqual(expectedIds);
    const one = lf.scores.get(scoreIdFor(rag[0]!, 'ragas-faithfulness'))!;
    expect(one).toMatchObject({
      traceId: rag[0],
      value: 0.8,
      configId: 'cfg-f',
      environment: 'production',
      comment: 'fine',
    });
    expect(one.timestamp).toBe(new Date(all.find((t) => t.id === rag[0])!.timestamp).toISOString());
    expect(one.metadata).toMatchObject({
      metric: 'faithfulness',
      judgeModel: 'judge',
      sampleRate: 0.1,
      promptVersion: 'p1',
    });
    expect(report.means.faithfulness).toBeCloseTo(0.8, 12);
    expect(report.means.answer_relevancy).toBeCloseTo(0.6, 12);
    const gauges = await deps.state.getGauges();
    expect(Object.keys(gauges).sort()).toEqual(['rag_answer_relevancy_score', 'rag_faithfulness_score']);
    expect(gauges.rag_faithfulness_score).toBeCloseTo(0.8, 12);
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 10 * MIN);
    expect((await deps.state.getEntry(nonRag[0]!))!).toMatchObject({ status: 'skipped', reason: 'no_contexts' });

    const writes = lf.writes;
    clock.advance(5 * MIN);
    const second = await runOnlineTick(deps, settings());
    expect(second.outcome).toBe('success');
    expect(second.taken).toBe(0);
    expect(lf.writes).toBe(writes);
    expect((await deps.state.getJobRun(ONLINE_JOB))!.lastSuccessAt).toBe(NOW + 5 * MIN);
  });

  it('keeps traces over the per-tick cap pending in the ledger and takes them on later ticks; the cursor moves on', async () => {
    const all = traces(300);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    );
    const first = await runOnlineTick(deps, settings({ caps: { maxPerTick: 5, maxPerHour: 1000 } }));
    expect(first.taken).toBe(5);
    expect(first.deferred).toBe(sampled.length - 5);
    const counts = await deps.state.countByStatus();
    expect(counts.pending).toBe(sampled.length - 5);
    // Every sampled trace of the window is in the ledger: the window is done with, its traces wait there.
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 10 * MIN);

    for (let i = 0; i < 20 && (await deps.state.countByStatus()).pending > 0; i++) {
      clock.advance(5 * MIN);
      const r = await runOnlineTick(deps, settings({ caps: { maxPerTick: 5, maxPerHour: 1000 } }));
      expect(r.taken).toBeLessThanOrEqual(5);
    }
    const final = await deps.state.countByStatus();
    expect(final.pending).toBe(0);
    expect(final.done + final.skipped).toBe(sampled.length);
  });

  it('respects the per-hour cap across ticks', async () => {
    const lf = new FakeLangfuse(traces(400));
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    const caps = { maxPerTick: 100, maxPerHour: 7 };
    expect((await runOnlineTick(deps, settings({ caps }))).taken).toBe(7);
    clock.advance(5 * MIN);
    expect((await runOnlineTick(deps, settings({ caps }))).taken).toBe(0);
    clock.advance(60 * MIN);
    expect((await runOnlineTick(deps, settings({ caps }))).taken).toBe(7);
  });

  it('retries a failing trace with backoff and marks it dead after the last attempt', async () => {
    const all = traces(200);
    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    ).filter((id) => all.find((t) => t.id === id)!.rag);
    const victim = sampled[0]!;
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const score = fakeScorer((traceId, metric) =>
      traceId === victim
        ? {
            metric,
            status: 'failed',
            error: 'judge answered http_500 after 4 attempts',
            kind: 'http_500',
            dependency: 'judge',
            retryable: true,
          }
        : undefined,
    );
    // the judge answers its health probe: the failure is the trace's own
    const deps = jobDeps(lf, clock, { score, probes: { judge: async () => true } });
    const first = await runOnlineTick(deps, settings());
    expect(first.outcome).toBe('success');
    expect(await deps.state.getEntry(victim)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'metric:faithfulness:http_500',
      nextAttemptAt: NOW + 60_000,
    });

    clock.advance(30_000);
    expect((await runOnlineTick(deps, settings())).taken).toBe(0);
    clock.advance(30_000);
    expect((await runOnlineTick(deps, settings())).taken).toBe(1);
    expect(await deps.state.getEntry(victim)).toMatchObject({
      status: 'failed',
      attempts: 2,
      nextAttemptAt: NOW + 60_000 + 120_000,
    });
    clock.advance(120_000);
    const last = await runOnlineTick(deps, settings());
    expect(last.dead).toBe(1);
    expect(await deps.state.getEntry(victim)).toMatchObject({
      status: 'dead',
      attempts: 3,
      reason: 'metric:faithfulness:http_500',
    });
    expect([...lf.scores.values()].some((s) => s.traceId === victim)).toBe(false);
    clock.advance(24 * 3600_000);
    expect((await runOnlineTick(deps, settings())).taken).toBe(0);
  });

  it('stops the tick without charging attempts when the dependency is down', async () => {
    const all = traces(200);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    let judgeUp = false;
    const score = fakeScorer((_id, metric) =>
      judgeUp
        ? undefined
        : {
            metric,
            status: 'failed',
            error: 'connection refused (ECONNREFUSED)',
            kind: 'connection',
            dependency: 'judge',
            retryable: true,
          },
    );
    const deps = jobDeps(lf, clock, { score, probes: { judge: async () => judgeUp } });
    const down = await runOnlineTick(deps, settings({ concurrency: 1 }));
    expect(down.outcome).toBe('incomplete');
    expect(down.error).toBe('metric:faithfulness:connection');
    // The cursor is pinned at the first window's start, or at its end once every sampled trace of it is in the
    // ledger (the listing goes on beside the evaluation that met the outage): nothing before it is missing.
    const cursor = (await deps.state.getCursor(ONLINE_JOB))!;
    expect([NOW - 70 * MIN, NOW - 10 * MIN]).toContain(cursor);
    for (const id of expectedSampled(
      all.map((t) => t.id),
      0.1,
    )) {
      if (all.find((t) => t.id === id)!.timestamp < cursor) expect(await deps.state.getEntry(id), id).not.toBeNull();
    }
    expect(lf.scores.size).toBe(0);
    const pending = await deps.state.listByStatus('pending', 100);
    expect(pending.every((e) => e.attempts === 0)).toBe(true);

    judgeUp = true;
    clock.advance(5 * MIN);
    const up = await runOnlineTick(deps, settings());
    expect(up.outcome).toBe('success');
    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    ).filter((id) => all.find((t) => t.id === id)!.rag);
    expect(lf.scores.size).toBe(sampled.length * 2);
  });

  it('reports Langfuse listing failures as incomplete and keeps the cursor', async () => {
    const lf = new FakeLangfuse(traces(50));
    lf.listTraces = async function* () {
      yield* [];
      throw new LangfuseApiError('boom', 'GET /api/public/traces', 'connection', undefined, true, 5);
    };
    const deps = jobDeps(lf, new ManualClock(NOW));
    const r = await runOnlineTick(deps, settings());
    expect(r).toMatchObject({ outcome: 'incomplete', error: 'langfuse:connection' });
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 70 * MIN);
    expect((await deps.state.getJobRun(ONLINE_JOB))!.lastSuccessAt).toBeNull();
  });

  it('writes no score for not_scorable metrics and skips samples with residual PII', async () => {
    const all = traces(200);
    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    ).filter((id) => all.find((t) => t.id === id)!.rag);
    const [a, b] = sampled;
    const lf = new FakeLangfuse(all);
    const score = fakeScorer((traceId, metric) =>
      traceId === a && metric === 'faithfulness' ? { metric, status: 'not_scorable', reason: 'no claims' } : undefined,
    );
    const anonymizer = {
      anonymizeSample: (s: { traceId: string }) => ({
        sample: s as never,
        entities: [],
        residual: s.traceId === b ? [{}] : [],
      }),
    };
    const deps = jobDeps(lf, new ManualClock(NOW), { score, anonymizer });
    const r = await runOnlineTick(deps, settings());
    expect(r.skipped.pii_residual).toBe(1);
    expect(await deps.state.getEntry(b!)).toMatchObject({ status: 'skipped', reason: 'pii_residual' });
    expect(await deps.state.getEntry(a!)).toMatchObject({
      status: 'done',
      scoreIds: [scoreIdFor(a!, 'ragas-answer-relevancy')],
    });
    expect(lf.scores.has(scoreIdFor(a!, 'ragas-faithfulness'))).toBe(false);
  });

  it('skips the tick while another replica holds the lease', async () => {
    const lf = new FakeLangfuse(traces(50));
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    await deps.state.acquireLease('online-tick', { id: 'other', host: 'elsewhere', pid: 9 }, 300_000, NOW);
    expect((await runOnlineTick(deps, settings())).outcome).toBe('lease_held');
    expect(lf.gets).toBe(0);
  });

  it('stops taking traces when the lease keeper finds the lease taken mid-run', async () => {
    const all = traces(400);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const timers = new ManualTimers();
    let stolen = false;
    const deps = jobDeps(lf, clock, { timers });
    deps.score = fakeScorer();
    const score = deps.score;
    // The first trace is slow: the lease runs out, another replica takes it, and the keeper's timer fires.
    deps.score = (async (...args: Parameters<typeof score>) => {
      if (!stolen) {
        stolen = true;
        clock.advance(6 * MIN);
        await deps.state.acquireLease('online-tick', { id: 'other', host: 'elsewhere', pid: 9 }, 300_000, clock.now());
        await timers.fire();
      }
      return score(...args);
    }) as typeof score;
    const report = await runOnlineTick(deps, settings({ concurrency: 1 }));
    expect(report.outcome).toBe('lease_lost');
    expect(timers.scheduled[0]).toBe(100_000);
    expect(report.taken).toBe(1);
    expect(report.evaluated).toBe(1);
    // The other replica's lease is untouched by this run's end.
    expect(
      await deps.state.renewLease('online-tick', { id: 'other', host: 'elsewhere', pid: 9 }, 300_000, clock.now()),
    ).toBe(true);
  });

  it('takes no new traces after a soft stop and leaves the cursor', async () => {
    const lf = new FakeLangfuse(traces(300));
    const deps = jobDeps(lf, new ManualClock(NOW));
    const stop = new AbortController();
    stop.abort();
    const r = await runOnlineTick(deps, settings(), { stop: stop.signal });
    expect(r.outcome).toBe('stopped');
    expect(r.taken).toBe(0);
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 70 * MIN);
  });
});

describe('runBackfill', () => {
  it('re-scores every sampled trace of the window under the same score ids, leaving cursor and gauges alone', async () => {
    const all = traces(300);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    await runOnlineTick(deps, settings());
    const ids = [...lf.scores.keys()].sort();
    const writes = lf.writes;
    const cursor = await deps.state.getCursor(ONLINE_JOB);
    const gauges = await deps.state.getGauges();

    const rescoring = { ...deps, score: fakeScorer(() => undefined) };
    clock.advance(MIN);
    const report = await runBackfill(rescoring, settings({ caps: { maxPerTick: 1, maxPerHour: 1 } }), {
      from: new Date(NOW - 2 * 3600_000),
      to: new Date(NOW),
    });
    expect(report.outcome).toBe('success');
    expect(report.deferred).toBe(0);
    expect(report.evaluated).toBe(ids.length / 2);
    expect(lf.writes).toBe(writes * 2);
    expect([...lf.scores.keys()].sort()).toEqual(ids);
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(cursor);
    expect(await deps.state.getGauges()).toEqual(gauges);
    expect((await deps.state.getJobRun(BACKFILL_JOB))!.lastSuccessAt).toBe(NOW + MIN);
  });
});

describe('planOnlineTick', () => {
  it('lists what would be sampled and why, touching nothing', async () => {
    const all = traces(300);
    const lf = new FakeLangfuse(all);
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    const plan = await planOnlineTick(deps, settings({ caps: { maxPerTick: 3, maxPerHour: 100 } }));
    const sampled = expectedSampled(
      all.map((t) => t.id),
      0.1,
    );
    expect(new Set(plan.planned.map((p) => p.traceId))).toEqual(new Set(sampled));
    // Oldest first, as the tick's claims take them.
    const times = plan.planned.map((p) => Date.parse(p.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(plan.planned.filter((p) => p.action === 'evaluate' || p.action === 'skip')).toHaveLength(3);
    expect(plan.planned.filter((p) => p.action === 'defer_cap')).toHaveLength(sampled.length - 3);
    expect(plan).toMatchObject({ taken: 3, deferred: sampled.length - 3 });
    expect(plan.evaluate + Object.values(plan.skipped).reduce((a, b) => a + b, 0)).toBe(3);
    expect(plan.planned[0]!.point).toBeLessThan(0.1);
    // Only the taken traces are read, to decide as the tick does.
    expect(lf.gets).toBe(3);
    expect(await deps.state.countByStatus()).toEqual({ pending: 0, done: 0, skipped: 0, failed: 0, dead: 0 });
  });
});
