import { describe, expect, it } from 'vitest';
import { runJudgeStage } from '../../../src/calibrate/index.js';
import { createExperimentJob, EXPERIMENT_JOB_NAME } from '../../../src/experiment/job.js';
import { openSqliteState } from '../../../src/state/index.js';
import { parseConfig } from '../../helpers/config.js';
import { testRuntime } from '../../../src/runtime/index.js';

const HOUR = 3_600_000;
// Langfuse unreachable: each run that starts fails at once, which is enough to see who started one.
const config = parseConfig({
  langfuse: { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk-lf-x', secretKey: 'sk-lf-x', maxAttempts: 1 },
  experiment: { enabled: true, target: { url: 'http://127.0.0.1:1/ask' } },
  http: { reportsPublic: true },
  log: { level: 'silent' },
});
const ctx = () => ({
  reason: 'scheduled' as const,
  stop: new AbortController().signal,
  signal: new AbortController().signal,
});

describe('the weekly experiment with several replicas', () => {
  it('runs on the replica that takes the lease, once a slot', async () => {
    const state = openSqliteState({ path: ':memory:', shared: true });
    let t = Date.parse('2025-03-02T03:00:00Z');
    const starts: string[] = [];
    const job = (id: string) =>
      createExperimentJob({
        config,
        runtime: testRuntime({ now: { now: () => t } }),
        state,
        metrics: { goldenResults: () => {}, tickStarted: () => void starts.push(id) },
        judgeStage: runJudgeStage,
        oneReplica: { holder: { id, host: id, pid: 1 }, slotMs: 3.5 * 24 * HOUR },
      });
    const [a, b, c] = [job('a'), job('b'), job('c')];
    // b holds the lease (a run in progress): a's firing leaves it alone
    await state.acquireLease('experiment', { id: 'b', host: 'b', pid: 1 }, 60_000, t);
    await a(ctx());
    expect(starts).toEqual([]);
    await state.releaseLease('experiment', { id: 'b', host: 'b', pid: 1 });
    await a(ctx());
    expect(starts).toEqual(['a']);
    expect((await state.getJobRun(EXPERIMENT_JOB_NAME))!.lastStartAt).toBe(t);
    // c's firing of the same slot, a minute later: already run
    t += 60_000;
    await c(ctx());
    expect(starts).toEqual(['a']);
    expect(await state.leaseHolder('experiment', t)).toBeNull();
    // next week: whoever fires first runs it
    t += 7 * 24 * HOUR;
    await b(ctx());
    await c(ctx());
    expect(starts).toEqual(['a', 'b']);
    await state.close();
  });
});
