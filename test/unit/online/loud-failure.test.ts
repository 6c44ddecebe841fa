import { afterEach, describe, expect, it } from 'vitest';
import { jobCatalogue, formatStatus } from '../../../src/commands/status.js';
import { formatTickReport } from '../../../src/online/format.js';
import { ONLINE_JOB, runOnlineTick } from '../../../src/online/job.js';
import { openStateReadOnly } from '../../../src/state/queries/read-only.js';
import { buildStatusReport } from '../../../src/state/queries/status-report.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { tempState } from '../status/helpers.js';
import { FakeLangfuse, fakeScorer, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';
import { parseConfig } from '../../helpers/config.js';

/** A tick whose traces all fail on their own is loud: warn lines with codes, not `success`, codes in `status`. */

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;
const temp = tempState();
afterEach(() => temp.cleanup());

function traces(n: number): FakeTrace[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `trace-${String(i).padStart(4, '0')}`,
    name: 'rag',
    timestamp: NOW - 40 * MIN + i * 1000,
    rag: true,
  }));
}

describe('loud failure', () => {
  it('a tick in which every trace failed on its own is not a success, logs each failure at warn with its code, and status shows the codes', async () => {
    const lf = new FakeLangfuse(traces(30));
    const logs = captureLogger('info');
    // the judge answers, but never anything these traces can use: the failures are the traces' own
    const score = fakeScorer((_id, metric) => ({
      metric,
      status: 'failed',
      error: 'schema_mismatch: claims missing (after 3 attempts)',
      kind: 'schema_mismatch',
      dependency: 'judge',
      retryable: true,
    }));
    const deps = jobDeps(lf, new ManualClock(NOW), {
      score,
      logger: logs.logger,
      state: temp.open(),
      probes: { judge: async () => true },
    });
    const settings = testSettings({ sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} } });
    const report = await runOnlineTick(deps, settings);

    expect(report.failed).toBe(30);
    expect(report.evaluated).toBe(0);
    expect(report.outcome).toBe('failed');
    expect(formatTickReport(report).split('\n')[0]).toBe('tick: failed (30 traces failed, none evaluated)');
    const run = (await deps.state.getJobRun(ONLINE_JOB))!;
    expect(run.lastOutcome).toBe('failed');
    expect(run.lastSuccessAt).toBeNull();
    // the window was listed in full and every trace is in the ledger to be retried: the cursor may move on
    expect(await deps.state.getCursor(ONLINE_JOB)).toBe(NOW - 10 * MIN);

    const warnings = logs
      .records()
      .filter((r) => r.level === 'warn' && r.error === 'metric:faithfulness:schema_mismatch');
    expect(new Set(warnings.map((r) => r.traceId)).size).toBe(30);
    expect(logs.records().filter((r) => r.level === 'info' && r.traceId !== undefined)).toEqual([]);
    const summary = logs.records().find((r) => r.msg === 'online run finished')!;
    expect(summary).toMatchObject({ level: 'warn', outcome: 'failed', failed: 30 });
    await deps.state.close();

    const ro = openStateReadOnly(temp.path)!;
    const config = parseConfig({ state: { path: temp.path } });
    const status = buildStatusReport(ro, {
      path: temp.path,
      now: NOW,
      days: 2,
      basis: 'sampled',
      timezone: 'UTC',
      jobs: jobCatalogue(config),
      langfuseSetting: 'auto',
    });
    ro.close();
    expect(status.totals.failedByError).toEqual({ 'metric:faithfulness:schema_mismatch': 30 });
    expect(status.failing.count).toBe(30);
    expect(status.failing.shown[0]).toMatchObject({ attempts: 1, lastError: 'metric:faithfulness:schema_mismatch' });
    const text = formatStatus(status, NOW);
    expect(text).toMatch(/failed\s+30\s+metric:faithfulness:schema_mismatch 30/);
    expect(text).toMatch(/failing traces, retried before they go dead \(10 of 30\)/);
    expect(text).toContain('trace-0000');
  });

  it('a tick with some traces scored and some failed stays a success, still warning per failure', async () => {
    const lf = new FakeLangfuse(traces(10));
    const logs = captureLogger('info');
    const score = fakeScorer((id, metric) =>
      id === 'trace-0003'
        ? {
            metric,
            status: 'failed',
            error: 'truncated: finish_reason length',
            kind: 'truncated',
            dependency: 'judge',
            retryable: true,
          }
        : undefined,
    );
    const deps = jobDeps(lf, new ManualClock(NOW), { score, logger: logs.logger, probes: { judge: async () => true } });
    const report = await runOnlineTick(
      deps,
      testSettings({ sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} } }),
    );
    expect(report).toMatchObject({ outcome: 'success', evaluated: 9, failed: 1 });
    expect(logs.records().filter((r) => r.level === 'warn' && r.traceId === 'trace-0003')).toHaveLength(1);
    expect(logs.records().find((r) => r.msg === 'online run finished')).toMatchObject({ level: 'warn' });
  });
});
