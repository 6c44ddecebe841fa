/**
 * Can the judge be trusted? The pure core of `ragwatch calibrate`: agreement between the judge and people
 * (estimators with seeded bootstrap intervals, tables per metric × language × stratum, the worst
 * disagreements), the sampling plan for the annotation queue, and drift of the judge itself on a fixed anchor
 * set. Inputs are plain arrays, outputs plain objects a report renders; nothing here reads Langfuse or the clock.
 * docs/calibration.md explains the figures to the people who read them.
 */
export { agreementFigures, type AgreementFigure, type CellFigures, type FigureOptions } from './agreement.js';
export { DEFAULT_BOOTSTRAP, type BootstrapInterval, type BootstrapOptions } from './bootstrap.js';
export {
  worstDisagreements,
  isListable,
  type Disagreement,
  type DisagreementList,
  type DisagreementOptions,
} from './disagreements.js';
export {
  judgeDrift,
  DEFAULT_DRIFT_TOLERANCE,
  DEFAULT_MIN_ANCHORS,
  type AnchorRescore,
  type AnchorScore,
  type AnchorSet,
  type DriftOptions,
  type DriftReport,
  type DriftStatus,
  type MetricDrift,
} from './drift.js';
export type { Estimate, NotEstimable } from './estimate.js';
export { fingerprintChanges, type JudgeFingerprint } from './fingerprint.js';
export { DEFAULT_CUTS, LEVEL_VALUE, LEVELS, cutProblems, levelOf, type Level, type LevelCuts } from './levels.js';
export { moreAnnotationsForWidth, moreAnnotationsToHalve } from './precision.js';
export { checkPairs, EXCLUSION, type AnnotatedPair, type Exclusion } from './pairs.js';
export {
  samplingPlan,
  DEFAULT_ANNOTATION_RATE,
  DEFAULT_WEEKLY_CAP,
  type EnqueueCandidate,
  type SamplingPlan,
  type SamplingPlanOptions,
  type StratumPlan,
} from './sampling-plan.js';
export { AGREEMENT_STATISTICS, STATISTIC_INFO, type AgreementStatistic, type StatisticInfo } from './statistics.js';
export {
  agreementTable,
  DEFAULT_TARGET_WIDTH,
  type AgreementCell,
  type AgreementTable,
  type TableOptions,
} from './table.js';
export { buildAnchorSet, samplesFromGolden, samplesFromInput } from './anchor-build.js';
export { writeAnchorFile } from './anchor-file.js';
export { runEnqueue, type EnqueueResult } from './enqueue.js';
export { runJudgeStage, type JudgeSection, type JudgeStage } from './experiment-stage.js';
export {
  AGREEMENT_FLOOR_GAUGE,
  AGREEMENT_GAUGE,
  DRIFT_GAUGE,
  DRIFT_TOLERANCE_GAUGE,
  calibrationGaugeValues,
  parseCalibrationKey,
} from './gauges.js';
export type { JudgeCheck } from './judge-check.js';
export { probeJudgeIdentity } from './judge-identity.js';
export { judgeHtml, judgeMarkdown } from './render-drift.js';
export { calibrationHtml, calibrationMarkdown } from './render.js';
export { buildCalibration, type CalibrationSummary } from './report.js';
