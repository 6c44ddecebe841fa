import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/index.js';
import type { JobRunContext } from '../runtime/index.js';
import { LeaseKeeper, type LeaseHolder, type JobRuns, type Leases, type StateFacts } from '../state/index.js';
import type { ExperimentState } from './run-record.js';
import { connectExperiment, type ExperimentEdgeDeps } from './edges.js';
import { ExperimentIncompleteError, ExperimentInputError } from './errors.js';
import { goldenGaugeValues } from './gauges.js';
import { runExperiment, type ExperimentResult } from './run.js';

export const EXPERIMENT_JOB_NAME = 'experiment';

export interface ExperimentJobDeps extends Omit<ExperimentEdgeDeps, 'state'> {
  config: RagwatchConfig;
  state: ExperimentState & JobRuns & Leases & Pick<StateFacts, 'setGauges'>;
  /** Gauges on `/metrics` (`rag_golden_score{metric,split}`, the gate verdict). */
  metrics: {
    goldenResults(values: Record<string, number>): void;
    calibrationResults?(values: Record<string, number>): void;
    tickStarted?(job: string, at: number): void;
    tickFinished?(job: string, outcome: string, succeeded: boolean, at: number): void;
  };
  /** Sees each finished run (the demo and tests). */
  onResult?: (result: ExperimentResult) => void;
  /**
   * Replicas sharing the state: the firing runs only on the replica that takes the experiment lease, and not at
   * all when a run started less than `slotMs` ago (another replica's firing of the same slot, a clock apart).
   */
  oneReplica?: { holder: LeaseHolder; slotMs: number; leaseMs?: number };
}

const EXPERIMENT_LEASE = 'experiment';

/**
 * The daemon's weekly slot: one experiment per firing, its gauges published and persisted (restored at the next
 * start), its outcome recorded as the job's run. A run that could not complete leaves the gauges as they were.
 */
export function createExperimentJob(deps: ExperimentJobDeps) {
  const now = deps.runtime.clock.now;
  return async (ctx: JobRunContext): Promise<void> => {
    const one = deps.oneReplica;
    if (!one) return runOnce(deps, now, ctx.signal);
    const leaseMs = one.leaseMs ?? LEASE_MS;
    if (!(await deps.state.acquireLease(EXPERIMENT_LEASE, one.holder, leaseMs, now()))) {
      deps.runtime.logger.info(
        { job: EXPERIMENT_JOB_NAME },
        'another replica runs the golden-set experiment; not running it here',
      );
      return;
    }
    const lease = new LeaseKeeper({
      leases: deps.state,
      name: EXPERIMENT_LEASE,
      holder: one.holder,
      ttlMs: leaseMs,
      now,
      onLost: () =>
        deps.runtime.logger.warn(
          { job: EXPERIMENT_JOB_NAME },
          'lost the experiment lease; another replica may start the run',
        ),
    }).start();
    try {
      const last = (await deps.state.getJobRun(EXPERIMENT_JOB_NAME))?.lastStartAt ?? null;
      if (last !== null && now() - last < one.slotMs) {
        deps.runtime.logger.info(
          { job: EXPERIMENT_JOB_NAME, lastStartAt: new Date(last).toISOString() },
          'this slot of the golden-set experiment already ran on another replica',
        );
        return;
      }
      await runOnce(deps, now, ctx.signal);
    } finally {
      await lease.release();
    }
  };
}

/** Renewed at a third while the run goes: a replica that dies mid-run frees the experiment after this long. */
const LEASE_MS = 5 * 60_000;

async function runOnce(deps: ExperimentJobDeps, now: () => number, signal: AbortSignal): Promise<void> {
  await deps.state.recordJobStart(EXPERIMENT_JOB_NAME, now());
  deps.metrics.tickStarted?.(EXPERIMENT_JOB_NAME, now());
  let outcome = 'failed';
  let succeeded = false;
  try {
    const experiment = await connectExperiment(deps.config, { ...deps, state: deps.state }, signal);
    // With the state's report archive (PostgreSQL) the report lives there, for every replica: no file is written.
    const reportsDir = deps.reports ? null : resolve(deps.config.experiment.reportsDir);
    const result = await runExperiment(experiment, { reportsDir, signal });
    const values = goldenGaugeValues(result.report);
    deps.metrics.goldenResults(values);
    const judgeValues = result.judgeGauges;
    deps.metrics.calibrationResults?.(judgeValues);
    await deps.state.setGauges({ ...values, ...judgeValues }, now());
    outcome =
      result.outcome === 'passed' ? 'success' : result.outcome === 'failed' ? 'gate_failed' : 'gate_inconclusive';
    succeeded = true;
    deps.onResult?.(result);
  } catch (err) {
    outcome =
      err instanceof ExperimentIncompleteError
        ? 'incomplete'
        : err instanceof ExperimentInputError
          ? 'bad_input'
          : 'failed';
    const report = err instanceof ExperimentIncompleteError ? err.report?.html : undefined;
    deps.runtime.logger.error(
      {
        job: EXPERIMENT_JOB_NAME,
        outcome,
        error: err instanceof Error ? err.message : String(err),
        ...(report ? { report } : {}),
      },
      'golden-set experiment did not complete',
    );
  } finally {
    await deps.state.recordJobFinish(EXPERIMENT_JOB_NAME, outcome, succeeded, now());
    deps.metrics.tickFinished?.(EXPERIMENT_JOB_NAME, outcome, succeeded, now());
  }
}
