import type { RagwatchConfig } from '../config/schema.js';
import { scoreGaugeName } from '../metrics/registry.js';
import type { MetricName } from '../metrics/types.js';
import type { Logger } from '../service/logger.js';
import { isStateError, type StateError } from '../state/errors.js';
import { LeaseKeeper } from '../state/lease-keeper.js';
import { noopRecorder } from './ports.js';
import type { OnlineJobDeps, OnlineSettings, TickOptions, TickReport } from './run-types.js';
import { samplingPolicyFrom } from './sampler.js';
import { TickRun, type RunMode } from './tick-run.js';
import { computeWindow, nextCursor, type TickWindow } from './window.js';

export type * from './run-types.js';

export const ONLINE_JOB = 'online';
export const BACKFILL_JOB = 'backfill';
const LEASE = 'online-tick';
const TICK_MODE: RunMode = { job: ONLINE_JOB, lease: LEASE, dueFirst: true, retake: false, capped: true };
const BACKFILL_MODE: RunMode = { job: BACKFILL_JOB, lease: 'online-backfill', dueFirst: false, retake: true, capped: false };

export function onlineSettingsFrom(config: RagwatchConfig): OnlineSettings {
  const o = config.online;
  return {
    window: { settleDelaySeconds: o.settleDelaySeconds, overlapSeconds: o.overlapSeconds, initialLookbackSeconds: o.initialLookbackSeconds, maxWindowSeconds: o.maxWindowSeconds },
    sampling: samplingPolicyFrom(config),
    caps: { maxPerTick: config.sampling.maxPerTick, maxPerHour: config.sampling.maxPerHour },
    maxAttempts: o.maxAttempts,
    retryBackoffSeconds: o.retryBackoffSeconds,
    concurrency: o.concurrency,
    leaseSeconds: o.leaseSeconds,
  };
}

export function emptyReport(window: TickWindow | null): TickReport {
  return {
    outcome: 'success',
    window: window ? { from: window.from.toISOString(), to: window.to.toISOString() } : null,
    more: window?.capped ?? false,
    listed: 0,
    sampled: 0,
    taken: 0,
    deferred: 0,
    evaluated: 0,
    skipped: {},
    failed: 0,
    dead: 0,
    scoresWritten: 0,
    means: {},
    traces: [],
  };
}

export { retryDelayMs } from './tick-run.js';

/**
 * One online tick: lease → window → list → sample → ledger → evaluate (bounded concurrency) → scores →
 * ledger → cursor → gauges. Safe to kill at any point: the ledger entry is written before a trace is
 * evaluated, score ids are deterministic, and the cursor only moves once the window is fully handled.
 */
export async function runOnlineTick(deps: OnlineJobDeps, settings: OnlineSettings, options: TickOptions = {}): Promise<TickReport> {
  // A state file deleted or replaced under the process: every write would go to a file nobody reads again.
  const health = await deps.state.health();
  if (!health.ok && ['deleted', 'replaced', 'closed'].includes(health.problem.kind)) return stateFailure(deps.logger, ONLINE_JOB, health.problem);
  try {
    return await tick(deps, settings, options);
  } catch (err) {
    if (isStateError(err)) return stateFailure(deps.logger, ONLINE_JOB, err);
    throw err;
  }
}

/** The state file failed (full disk, deleted, unwritable): nothing recorded, the run ends incomplete, loudly. */
function stateFailure(logger: Logger, job: string, err: StateError): TickReport {
  logger.error({ job, error: err.shortCode, ...(err.code ? { code: err.code } : {}), ...(err.detail ? { detail: err.detail } : {}) }, err.message);
  return { ...emptyReport(null), outcome: 'incomplete', error: err.shortCode };
}

async function tick(deps: OnlineJobDeps, settings: OnlineSettings, options: TickOptions): Promise<TickReport> {
  const { state, clock, logger, holder } = deps;
  const recorder = deps.recorder ?? noopRecorder;
  const leaseMs = settings.leaseSeconds * 1000;
  const startedAt = clock.now();
  if (!(await state.acquireLease(LEASE, holder, leaseMs, startedAt))) {
    logger.info({ job: ONLINE_JOB }, 'another replica holds the online tick lease; skipping this tick');
    return { ...emptyReport(null), outcome: 'lease_held' };
  }
  await state.recordJobStart(ONLINE_JOB, startedAt);
  recorder.tickStarted(ONLINE_JOB, startedAt);

  const cursorMs = await state.getCursor(ONLINE_JOB);
  const window = computeWindow(settings.window, cursorMs === null ? null : new Date(cursorMs), new Date(startedAt));
  const report = emptyReport(window);
  const tick = new TickRun(deps, settings, options, report, recorder, TICK_MODE);
  const lease = keepLease(deps, LEASE, leaseMs, tick);
  try {
    // The first run pins where it started, so a first tick that fails does not let the look-back slide.
    if (cursorMs === null && window) await state.setCursor(ONLINE_JOB, window.from.getTime(), startedAt);
    await tick.run(window);
    markFailedRun(report);
    // A failed run still listed its whole window and put every trace in the ledger: the cursor moves on.
    if ((report.outcome === 'success' || report.outcome === 'failed') && window) {
      const earliest = await state.earliestPendingTimestamp();
      const cursor = nextCursor(window, cursorMs === null ? null : new Date(cursorMs), earliest === null ? null : new Date(earliest));
      await state.setCursor(ONLINE_JOB, cursor.getTime(), clock.now());
    }
    if (tick.scoredCount > 0) {
      report.means = tick.means();
      await state.setGauges(gaugeValues(report.means), clock.now());
      recorder.scoreMeans(report.means);
    }
    recorder.ledgerCounts(await state.countByStatus());
  } finally {
    const finishedAt = clock.now();
    const succeeded = report.outcome === 'success';
    recorder.tickFinished(ONLINE_JOB, report.outcome, succeeded, finishedAt);
    await state.recordJobFinish(ONLINE_JOB, report.outcome, succeeded, finishedAt);
    await lease.release();
  }
  logReport(logger, ONLINE_JOB, report);
  return report;
}

/** Renews the run's lease on its own timer until released; a loss stops the run taking traces. */
function keepLease(deps: OnlineJobDeps, name: string, ttlMs: number, run: TickRun): LeaseKeeper {
  const { state, holder, clock, logger } = deps;
  return new LeaseKeeper({
    leases: state,
    name,
    holder,
    ttlMs,
    now: () => clock.now(),
    ...(deps.timers ? { timers: deps.timers } : {}),
    onLost: (why) => run.leaseLost(why),
    onRenewError: (err) => logger.warn({ lease: name, error: isStateError(err) ? err.shortCode : 'error' }, 'renewing the lease failed; retrying'),
  }).start();
}

function gaugeValues(means: Partial<Record<MetricName, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(means).map(([metric, value]) => [scoreGaugeName(metric as MetricName), value as number]));
}


/** A run that evaluated nothing and had failures is no success, whatever else it did. */
function markFailedRun(report: TickReport): void {
  if (report.outcome === 'success' && report.failed > 0 && report.evaluated === 0) report.outcome = 'failed';
}

function logReport(logger: Logger, job: string, report: TickReport) {
  const { traces: _traces, ...summary } = report;
  const quiet = (report.outcome === 'success' && report.failed === 0 && report.dead === 0) || report.outcome === 'lease_held';
  logger[quiet ? 'info' : 'warn']({ job, ...summary }, `${job} run finished`);
}

/**
 * Re-evaluates every sampled trace of a past window, whatever the ledger says (e.g. after changing the
 * judge): scores are rewritten under the same ids, so they replace the old ones. No caps, no cursor move,
 * gauges untouched (they describe the live ticks). A lease keeps two backfills apart.
 */
export async function runBackfill(deps: OnlineJobDeps, settings: OnlineSettings, range: { from: Date; to: Date }, options: TickOptions = {}): Promise<TickReport> {
  const health = await deps.state.health();
  if (!health.ok && ['deleted', 'replaced', 'closed'].includes(health.problem.kind)) return stateFailure(deps.logger, BACKFILL_JOB, health.problem);
  try {
    return await backfill(deps, settings, range, options);
  } catch (err) {
    if (isStateError(err)) return stateFailure(deps.logger, BACKFILL_JOB, err);
    throw err;
  }
}

async function backfill(deps: OnlineJobDeps, settings: OnlineSettings, range: { from: Date; to: Date }, options: TickOptions): Promise<TickReport> {
  const { state, clock, logger, holder } = deps;
  const recorder = deps.recorder ?? noopRecorder;
  const window: TickWindow = { from: range.from, to: range.to, capped: false };
  const startedAt = clock.now();
  if (!(await state.acquireLease(BACKFILL_MODE.lease, holder, settings.leaseSeconds * 1000, startedAt))) {
    logger.info({ job: BACKFILL_JOB }, 'another backfill is running; not starting a second one');
    return { ...emptyReport(window), outcome: 'lease_held' };
  }
  const report = emptyReport(window);
  await state.recordJobStart(BACKFILL_JOB, startedAt);
  const run = new TickRun(deps, settings, options, report, recorder, BACKFILL_MODE);
  const lease = keepLease(deps, BACKFILL_MODE.lease, settings.leaseSeconds * 1000, run);
  try {
    await run.run(window);
    markFailedRun(report);
    recorder.ledgerCounts(await state.countByStatus());
  } finally {
    await state.recordJobFinish(BACKFILL_JOB, report.outcome, report.outcome === 'success', clock.now());
    await lease.release();
  }
  logReport(logger, BACKFILL_JOB, report);
  return report;
}
