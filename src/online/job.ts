import type { RagwatchConfig } from '../config/index.js';
import { scoreGaugeName, type MetricName } from '../metrics/index.js';
import type { Logger } from '../runtime/index.js';
import { isStateError, type StateError, LeaseKeeper } from '../state/index.js';
import { noopRecorder } from './ports.js';
import type { OnlineJobDeps, OnlineSettings, TickOptions, TickReport } from './run-types.js';
import { countDeferred, takeClaimed, type ClaimSource } from './claims.js';
import { ListingSignal, recordWindows } from './listing.js';
import type { OnlineRecorder } from './ports.js';
import { samplingPolicyFrom, TakeBudget } from './sampler.js';
import { sleep as sleepFor } from '../internal/index.js';
import { TickRun, type RunMode } from './tick-run.js';
import { computeWindow, type TickWindow } from './window.js';

export type * from './run-types.js';

export const ONLINE_JOB = 'online';
export const BACKFILL_JOB = 'backfill';
const LEASE = 'online-tick';
const TICK_MODE: RunMode = { job: ONLINE_JOB, lease: LEASE };
const HOUR_MS = 3_600_000;
/** How often a replica with nothing due looks again while another one lists. */
const CLAIM_POLL_MS = 1000;
const BACKFILL_MODE: RunMode = { job: BACKFILL_JOB, lease: 'online-backfill' };

export function onlineSettingsFrom(config: RagwatchConfig): OnlineSettings {
  const o = config.online;
  return {
    window: {
      settleDelaySeconds: o.settleDelaySeconds,
      overlapSeconds: o.overlapSeconds,
      initialLookbackSeconds: o.initialLookbackSeconds,
      maxWindowSeconds: o.maxWindowSeconds,
    },
    sampling: samplingPolicyFrom(config),
    caps: {
      maxPerTick: config.sampling.maxPerTick ?? config.sampling.maxPerHour,
      maxPerHour: config.sampling.maxPerHour,
    },
    maxAttempts: o.maxAttempts,
    retryBackoffSeconds: o.retryBackoffSeconds,
    concurrency: o.concurrency ?? tracesInFlight(config.judge.concurrency),
    leaseSeconds: o.leaseSeconds,
    readBack: { sample: o.readBack.sample, withinSeconds: o.readBack.withinSeconds },
  };
}

export function emptyReport(window: TickWindow | null): TickReport {
  return {
    outcome: 'success',
    window: window ? { from: window.from.toISOString(), to: window.to.toISOString() } : null,
    more: window?.capped ?? false,
    listed: 0,
    excluded: 0,
    sampled: 0,
    taken: 0,
    deferred: 0,
    evaluated: 0,
    skipped: {},
    failed: 0,
    dead: 0,
    scoresWritten: 0,
    scoresReadBack: 0,
    scoresUnconfirmed: 0,
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
export async function runOnlineTick(
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  options: TickOptions = {},
): Promise<TickReport> {
  // A state file deleted or replaced under the process: every write would go to a file nobody reads again.
  const health = await deps.state.health();
  if (!health.ok && ['deleted', 'replaced', 'closed'].includes(health.problem.kind))
    return stateFailure(deps.logger, ONLINE_JOB, health.problem);
  try {
    return await tick(deps, settings, options);
  } catch (err) {
    if (isStateError(err)) return stateFailure(deps.logger, ONLINE_JOB, err);
    throw err;
  }
}

/** The state file failed (full disk, deleted, unwritable): nothing recorded, the run ends incomplete, loudly. */
function stateFailure(logger: Logger, job: string, err: StateError): TickReport {
  logger.error(
    {
      job,
      error: err.shortCode,
      ...(err.code ? { code: err.code } : {}),
      ...(err.detail ? { detail: err.detail } : {}),
    },
    err.message,
  );
  return { ...emptyReport(null), outcome: 'incomplete', error: err.shortCode };
}

async function tick(deps: OnlineJobDeps, settings: OnlineSettings, options: TickOptions): Promise<TickReport> {
  const { state, clock, logger, holder } = deps;
  const recorder = deps.recorder ?? noopRecorder;
  const leaseMs = settings.leaseSeconds * 1000;
  const startedAt = clock.now();
  if (!(await state.acquireLease(LEASE, holder, leaseMs, startedAt))) {
    if (state.shared) return workerRun(deps, settings, options, recorder);
    logger.info({ job: ONLINE_JOB }, 'another replica holds the online tick lease; skipping this tick');
    return { ...emptyReport(null), outcome: 'lease_held' };
  }
  await state.recordJobStart(ONLINE_JOB, startedAt);
  recorder.tickStarted(ONLINE_JOB, startedAt);

  const cursorMs = await state.getCursor(ONLINE_JOB);
  const window = computeWindow(settings.window, cursorMs === null ? null : new Date(cursorMs), new Date(startedAt));
  const report = emptyReport(window);
  // Capped windows are listed one after another in this run: none is left for another run right away.
  report.more = false;
  const run = new TickRun(deps, settings, options, report, recorder, TICK_MODE, publishMeans(deps, recorder));
  const lease = keepLease(deps, LEASE, leaseMs, run);
  try {
    // The first run pins where it started, so a first tick that fails does not let the look-back slide.
    if (cursorMs === null && window) await state.setCursor(ONLINE_JOB, window.from.getTime(), startedAt);
    const budget = await budgetFor(deps, settings, startedAt);
    const signal = new ListingSignal();
    const listing = (async () => {
      try {
        const ctx = { deps, settings, run, report, recorder, progress: options.progress, signal, abort: run.signal };
        if (window && !run.stopped) await recordWindows(ctx, window, ONLINE_JOB, cursorMs);
      } catch (err) {
        // Nothing can be recorded: the claim loop stops too, and the run ends with the state error.
        if (isStateError(err)) {
          run.endEarly('incomplete', err.shortCode);
          throw err;
        }
        run.listingFailed(err);
      } finally {
        signal.end();
        options.progress?.listingDone();
        // Shared state: the next replica may list while this one evaluates. One host's file: the lease covers
        // the whole run, as it always did.
        if (state.shared) await lease.release();
      }
    })();
    const claiming = takeClaimed(run, deps, settings, budget, claimSource(deps, signal, false));
    const [listed, claimed] = await Promise.allSettled([listing, claiming]);
    await run.finish();
    for (const r of [listed, claimed]) if (r.status === 'rejected') throw r.reason;
    await countDeferred(deps, report, recorder, budget);
    markFailedRun(report);
    if (run.scoredCount > 0) {
      report.means = run.means();
      await publishMeans(deps, recorder)(report.means);
      recorder.scoreMeansByLanguage?.(run.meansByLanguage());
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

/**
 * Shared state, another replica listing: evaluate what is due alongside it, and stop once nothing is due and
 * nobody lists. Records no job run (the listing replica does) and drops the ledger gauges, which the listing
 * replica exports, so that sums over replicas count each trace once.
 */
async function workerRun(
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  options: TickOptions,
  recorder: OnlineRecorder,
): Promise<TickReport> {
  const report = emptyReport(null);
  const run = new TickRun(deps, settings, options, report, recorder, TICK_MODE, publishMeans(deps, recorder));
  recorder.ledgerCounts(null);
  try {
    await takeClaimed(
      run,
      deps,
      settings,
      await budgetFor(deps, settings, deps.clock.now()),
      claimSource(deps, null, true),
    );
  } finally {
    await run.finish();
  }
  markFailedRun(report);
  if (report.taken === 0 && report.outcome === 'success') report.outcome = 'lease_held';
  logReport(deps.logger, ONLINE_JOB, report);
  return report;
}

async function budgetFor(deps: OnlineJobDeps, settings: OnlineSettings, now: number): Promise<TakeBudget> {
  return TakeBudget.from(settings.caps, await deps.state.attemptsSince(now - HOUR_MS));
}

function claimSource(deps: OnlineJobDeps, signal: ListingSignal | null, worker: boolean): ClaimSource {
  return {
    get listing() {
      return signal?.listing ?? false;
    },
    changed: () => signal?.changed() ?? Promise.resolve(),
    othersListing: async () => worker && (await deps.state.leaseHolder(LEASE, deps.clock.now())) !== null,
    pollMs: CLAIM_POLL_MS,
    sleep: deps.sleep ?? sleepFor,
  };
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
    onRenewError: (err) =>
      logger.warn(
        { lease: name, error: isStateError(err) ? err.shortCode : 'error' },
        'renewing the lease failed; retrying',
      ),
  }).start();
}

/** The score gauges: in the state (every replica shows the fleet's) and on this process's /metrics. */
function publishMeans(
  deps: OnlineJobDeps,
  recorder: OnlineRecorder,
): (means: Partial<Record<MetricName, number>>) => Promise<void> {
  return async (means) => {
    await deps.state.setGauges(gaugeValues(means), deps.clock.now());
    recorder.scoreMeans(means);
  };
}

function gaugeValues(means: Partial<Record<MetricName, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(means).map(([metric, value]) => [scoreGaugeName(metric as MetricName), value as number]),
  );
}

/** A run that evaluated nothing and had failures is no success, whatever else it did. */
function markFailedRun(report: TickReport): void {
  if (report.outcome === 'success' && report.failed > 0 && report.evaluated === 0) report.outcome = 'failed';
}

function logReport(logger: Logger, job: string, report: TickReport) {
  const { traces: _traces, ...summary } = report;
  const quiet =
    (report.outcome === 'success' && report.failed === 0 && report.dead === 0) || report.outcome === 'lease_held';
  logger[quiet ? 'info' : 'warn']({ job, ...summary }, `${job} run finished`);
}

/**
 * Re-evaluates every sampled trace of a past window, whatever the ledger says (e.g. after changing the
 * judge): scores are rewritten under the same ids, so they replace the old ones. No caps, no cursor move,
 * gauges untouched (they describe the live ticks). A lease keeps two backfills apart.
 */
export async function runBackfill(
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  range: { from: Date; to: Date },
  options: TickOptions = {},
): Promise<TickReport> {
  const health = await deps.state.health();
  if (!health.ok && ['deleted', 'replaced', 'closed'].includes(health.problem.kind))
    return stateFailure(deps.logger, BACKFILL_JOB, health.problem);
  try {
    return await backfill(deps, settings, range, options);
  } catch (err) {
    if (isStateError(err)) return stateFailure(deps.logger, BACKFILL_JOB, err);
    throw err;
  }
}

async function backfill(
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  range: { from: Date; to: Date },
  options: TickOptions,
): Promise<TickReport> {
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

/** `online.concurrency`'s default: one and a half traces per judge slot (see the configuration's comment). */
export function tracesInFlight(judgeConcurrency: number): number {
  return Math.ceil(1.5 * judgeConcurrency);
}
