import { describe, expect, it } from 'vitest';
import { ONLINE_JOB, runOnlineTick } from '../../../src/online/job.js';
import { recordThroughCut } from '../../../src/online/record.js';
import { StateError } from '../../../src/state/index.js';
import { FakeLangfuse, fakeScorer, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const all = (n: number, start: number, span: number): FakeTrace[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `trace-${String(i).padStart(4, '0')}`,
    name: 'rag-query',
    timestamp: start + Math.floor((i * span) / n),
    rag: true,
  }));
const everyTrace = { sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} } };

/** The cursor follows the ledger: it passes a window once every sampled trace of it is recorded there. */
describe('the online cursor and the ledger (one process, SQLite)', () => {
  it('a run abandoned mid-evaluation loses and duplicates nothing: the next run scores the rest, each trace once', async () => {
    const traces = all(40, NOW - 70 * MIN, 60 * MIN);
    const lf = new FakeLangfuse(traces);
    const clock = new ManualClock(NOW);
    const evaluations = new Map<string, number>();
    const abort = new AbortController();
    const inner = fakeScorer();
    const score = Object.assign(
      async (...args: Parameters<typeof inner>) => {
        const id = args[0].traceId;
        evaluations.set(id, (evaluations.get(id) ?? 0) + 1);
        // The tenth evaluation never answers: the process is stopped hard while it waits.
        if ([...evaluations.values()].reduce((a, b) => a + b, 0) === 10 && !abort.signal.aborted) {
          abort.abort(new Error('shutdown deadline reached'));
          throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        }
        return inner(...args);
      },
      { calls: 0 },
    );
    const deps = jobDeps(lf, clock, { score });
    const first = await runOnlineTick(deps, testSettings({ ...everyTrace, concurrency: 1 }), { signal: abort.signal });
    expect(first.outcome).toBe('stopped');
    expect(first.evaluated).toBe(9);
    clock.advance(5 * MIN);
    const second = await runOnlineTick(deps, testSettings({ ...everyTrace, concurrency: 1 }));
    expect(second.outcome).toBe('success');
    expect(await deps.state.countByStatus()).toMatchObject({ done: 40, pending: 0 });
    expect(lf.scores.size).toBe(80);
    expect(lf.writes).toBe(80);
    // Only the trace in flight at the stop was evaluated twice.
    expect([...evaluations.values()].filter((n) => n > 1)).toEqual([2]);
    expect(evaluations.size).toBe(40);
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW + 5 * MIN - 10 * MIN);
  });

  it('lists a backlog of capped windows in one run and moves the cursor to the end of each', async () => {
    const traces = all(48, NOW - 24 * HOUR, 23 * HOUR);
    const lf = new FakeLangfuse(traces);
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock);
    const settings = testSettings({
      ...everyTrace,
      window: {
        settleDelaySeconds: 600,
        overlapSeconds: 600,
        initialLookbackSeconds: 24 * 3600,
        maxWindowSeconds: 6 * 3600,
      },
    });
    const report = await runOnlineTick(deps, settings);
    expect(report).toMatchObject({ outcome: 'success', more: false, evaluated: 48 });
    expect(report.window!.to).toBe(new Date(NOW - 10 * MIN).toISOString());
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 10 * MIN);
  });

  it('ends a run whose window is no longer than the overlap instead of listing the same slice again and again', async () => {
    const lf = new FakeLangfuse(all(10, NOW - 2 * HOUR, HOUR));
    const deps = jobDeps(lf, new ManualClock(NOW));
    let listings = 0;
    const list = lf.listTraces.bind(lf);
    lf.listTraces = (w) => {
      listings += 1;
      if (listings > 50) throw new Error('listing forever');
      return list(w);
    };
    const settings = testSettings({
      ...everyTrace,
      window: { settleDelaySeconds: 600, overlapSeconds: 600, initialLookbackSeconds: 7200, maxWindowSeconds: 600 },
    });
    const report = await runOnlineTick(deps, settings);
    expect(report.outcome).toBe('success');
    expect(listings).toBe(1);
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 2 * HOUR);
  });
});

describe('recordThroughCut', () => {
  const cut = () => new StateError('postgres://u@db/x', 'unreachable', 'ECONNRESET');
  const options = (shared: boolean, waits: number[], signal = new AbortController().signal) => ({
    shared,
    signal,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
    maxWaitMs: 10_000,
    onRetry: () => {},
  });

  it('on shared state retries a write that met a cut until the server answers', async () => {
    let failures = 4;
    const waits: number[] = [];
    await recordThroughCut(
      async () => {
        if (failures-- > 0) throw cut();
      },
      options(true, waits),
    );
    expect(waits).toEqual([500, 1000, 2000, 4000]);
  });

  it('gives up after the claim lifetime, at once on SQLite, on other errors and once the run is abandoned', async () => {
    const waits: number[] = [];
    await expect(recordThroughCut(async () => Promise.reject(cut()), options(true, waits))).rejects.toThrow(StateError);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
    const none: number[] = [];
    await expect(recordThroughCut(async () => Promise.reject(cut()), options(false, none))).rejects.toThrow(StateError);
    await expect(
      recordThroughCut(async () => Promise.reject(new StateError('/x.db', 'full')), options(true, none)),
    ).rejects.toThrow(StateError);
    const abort = new AbortController();
    abort.abort();
    await expect(
      recordThroughCut(async () => Promise.reject(cut()), options(true, none, abort.signal)),
    ).rejects.toThrow(StateError);
    expect(none).toEqual([]);
  });
});
