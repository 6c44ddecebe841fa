/** The public surface of src/experiment/ for other folders: imports from outside go through this file. */
export { loadGoldenItems, type GoldenItem } from './items.js';
export type { SplitFilter, RunMetadata } from './report/model.js';
export type { JudgeSection, JudgeStage, JudgeStageInput, JudgeStageResult, RenderedSection } from './judge-stage.js';
export { connectExperiment } from './edges.js';
export { ExperimentIncompleteError, ExperimentInputError } from './errors.js';
export {
  GOLDEN_GATE_GAUGE,
  GOLDEN_GATE_INCONCLUSIVE_GAUGE,
  GOLDEN_RUN_TIME_GAUGE,
  goldenGaugeValues,
  parseGoldenScoreKey,
} from './gauges.js';
export { createExperimentJob } from './job.js';
export { reportRoute } from './report-route.js';
export { archivedReports, directoryReports, type ReportSource } from './report-sources.js';
export { reportAccessFrom, type ReportAccess } from './report-access.js';
export { runExperiment, type ExperimentResult } from './run.js';
export { decideGate, decideCheck, type GateOutcome, type GateRule, type CheckVerdict } from './gate.js';
export { formatRunSummary } from './summary.js';
export { junitIncomplete, junitReport } from './junit.js';
export { TargetError, createHttpTarget, createReplayTarget, targetConfigProblems, type Target } from './target.js';
