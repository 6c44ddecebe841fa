import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ONLINE_JOB, runOnlineTick } from '../../../src/online/job.js';
import { noopRecorder, type OnlineRecorder } from '../../../src/online/ports.js';
import { openSqliteState, type StateStore } from '../../../src/state/index.js';
import { FakeLangfuse, fakeScorer, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;
const traces = (n: number): FakeTrace[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `trace-${String(i).padStart(4, '0')}`,
    name: 'rag-query',
    timestamp: NOW - 70 * MIN + i * 1000,
    rag: true,
  }));

let dir: string;
const stores: StateStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Replicas on one shared store (SQLite acting as PostgreSQL does: every claim holds), each its own connection. */
function replicas(n: number, lf: FakeLangfuse, clock: ManualClock, recorders: OnlineRecorder[] = []) {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-replicas-'));
  const perTrace = new Map<string, number>();
  return Array.from({ length: n }, (_, i) => {
    const state = openSqliteState({ path: join(dir, 'state.db'), shared: true });
    stores.push(state);
    const inner = fakeScorer();
    // Slow enough that the replicas overlap; counts every evaluation of every trace.
    const score: typeof inner = Object.assign(
      async (...args: Parameters<typeof inner>) => {
        perTrace.set(args[0].traceId, (perTrace.get(args[0].traceId) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 3));
        return inner(...args);
      },
      { calls: 0 },
    );
    return {
      perTrace,
      deps: jobDeps(lf, clock, {
        state,
        score,
        holder: { id: `host-${i}:${i}:r`, host: `host-${i}`, pid: i },
        recorder: recorders[i] ?? noopRecorder,
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
      }),
    };
  });
}

describe('several replicas on shared state', () => {
  it('one lists, all claim and evaluate, and every sampled trace is scored exactly once', async () => {
    const lf = new FakeLangfuse(traces(120));
    const clock = new ManualClock(NOW);
    const dropped: number[] = [];
    const recorders = [0, 1, 2].map((i): OnlineRecorder => ({
      ...noopRecorder,
      ledgerCounts: (c) => c === null && dropped.push(i),
    }));
    const rs = replicas(3, lf, clock, recorders);
    const settings = testSettings({
      sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} },
      concurrency: 4,
    });
    const reports = await Promise.all(rs.map((r) => runOnlineTick(r.deps, settings)));

    const listers = reports.filter((r) => r.window !== null);
    expect(listers).toHaveLength(1);
    expect(listers[0]!.listed).toBe(120);
    expect(reports.reduce((n, r) => n + r.evaluated, 0)).toBe(120);
    for (const r of reports) expect(r.evaluated, JSON.stringify({ ...r, traces: [] })).toBeGreaterThan(0);
    expect([...rs[0]!.perTrace.values()].every((n) => n === 1)).toBe(true);
    expect(rs[0]!.perTrace.size).toBe(120);
    expect(lf.scores.size).toBe(240);
    const counts = await rs[0]!.deps.state.countByStatus();
    expect(counts).toMatchObject({ done: 120, pending: 0 });
    expect(await rs[0]!.deps.state.claimsByHolder(clock.now())).toEqual({});
    // The ledger gauges come from the listing replica only: the others drop theirs.
    expect(dropped.sort()).toEqual([0, 1, 2].filter((i) => reports[i]!.window === null));
    // Only the listing replica records the job's run.
    expect((await rs[0]!.deps.state.getJobRun(ONLINE_JOB))!.lastSuccessAt).toBe(NOW);
  });

  it('a replica that is not listing polls while another one lists, takes what it records, and ends with the listing', async () => {
    const lf = new FakeLangfuse(traces(10));
    const clock = new ManualClock(NOW);
    const [a, b] = replicas(2, lf, clock);
    await a!.deps.state.acquireLease('online-tick', a!.deps.holder, 60_000, clock.now());
    const worker = runOnlineTick(b!.deps, testSettings());
    await new Promise((r) => setTimeout(r, 30));
    await a!.deps.state.ensureEntry(
      {
        traceId: 'trace-0003',
        traceTimestamp: NOW - 60 * MIN,
        environment: null,
        traceName: 'rag-query',
        sampleRate: 1,
      },
      clock.now(),
    );
    await new Promise((r) => setTimeout(r, 30));
    await a!.deps.state.releaseLease('online-tick', a!.deps.holder);
    const report = await worker;
    expect(report).toMatchObject({ outcome: 'success', window: null, taken: 1, evaluated: 1 });
    expect(await b!.deps.state.getEntry('trace-0003')).toMatchObject({ status: 'done' });
    // with nothing due, a worker run ends as soon as nobody lists
    await a!.deps.state.acquireLease('online-tick', a!.deps.holder, 60_000, clock.now());
    const t0 = Date.now();
    const idle = runOnlineTick(b!.deps, testSettings());
    await new Promise((r) => setTimeout(r, 20));
    await a!.deps.state.releaseLease('online-tick', a!.deps.holder);
    expect(await idle).toMatchObject({ outcome: 'lease_held', taken: 0 });
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
