/**
 * The statistics and the gate: the run's outcomes become the report's numbers (means with bootstrap intervals
 * per split and stratum, the paired comparison with the previous run, the trend) and, for a complete run, the
 * release gate's verdict. An incomplete run's report says why and has no verdict.
 */
import type { RagwatchConfig } from '../config/index.js';
import type { History } from './history.js';
import type { ItemSelection } from './items.js';
import type { JudgeSection, JudgeStageResult } from './judge-stage.js';
import type { CleanResult } from './passes.js';
import type { RunPlan } from './plan.js';
import { buildReport, type ExperimentReport, type GateSummary } from './report/index.js';
import type { RunStatus } from './run-status.js';

/** A report of a run that completed: it has a gate verdict. */
export type CompleteReport<J extends JudgeSection = JudgeSection, C extends object = object> = ExperimentReport<
  J,
  C
> & {
  status: 'complete';
  gate: GateSummary;
};

export interface VerdictInput<J extends JudgeSection = JudgeSection, C extends object = object> {
  config: RagwatchConfig;
  plan: RunPlan;
  selection: ItemSelection;
  history: History;
  finished: readonly CleanResult[];
  now: () => number;
  /** The judge stage before the passes: identity, drift on the anchors, agreement with people. */
  judged?: JudgeStageResult<J, C>;
}

/** The report as the run stands now (call again once the status changed). */
export function judgeRun<J extends JudgeSection = JudgeSection, C extends object = object>(
  input: VerdictInput<J, C>,
  status: RunStatus,
): ExperimentReport<J, C> {
  const { config, plan, selection, history } = input;
  const cfg = config.experiment;
  const startedAt = new Date(plan.startedAt).toISOString();
  const stop = status.stop;
  const itemsNotRun = selection.items.length - input.finished.length;
  return buildReport({
    runName: plan.runName,
    datasetName: selection.dataset.name,
    startedAt,
    split: selection.split,
    run: plan.run,
    metrics: cfg.metrics,
    thresholds: config.metrics.thresholds,
    previous: history.previous,
    compareBasis: history.basis,
    history: history.trend,
    bootstrap: { samples: cfg.bootstrapSamples, seed: cfg.seed },
    gate: cfg.gate,
    noiseThreshold: cfg.noise.threshold,
    finishedAt: new Date(Math.max(Date.parse(startedAt), input.now())).toISOString(),
    outcomes: input.finished.map((c) => c.outcome),
    maxFailedShare: cfg.maxFailedShare,
    incomplete: stop ? { reason: stop.message, dependency: stop.dependency, itemsNotRun } : null,
    judge: input.judged?.judge ?? null,
    calibration: input.judged?.calibration ?? null,
    ...(config.judge.pricing ? { pricing: config.judge.pricing } : {}),
  });
}
