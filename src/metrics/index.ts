/** Public surface of the metrics module. */
export { scoreSample, type ScoreDeps } from './score-sample.js';
export { diagnose, type Diagnosis, type DiagnosisStatus, type Thresholds } from './gate.js';
export { detectLanguage, promptLanguage, type PromptLanguage } from './language.js';
export { allMetrics, getMetric, isMetricName, allMetricNames, parseMetricList, scoreGaugeName } from './registry.js';
export { averagePrecision, cosine } from './math.js';
export { noiseSensitivity } from './noise-sensitivity.js';
export { promptVersion, SCHEMA_NAMES, type JudgeTask } from './prompts/build.js';
export { judgePromptVersions } from './prompt-versions.js';
export {
  languageAllowed,
  LANGUAGE_NOT_ALLOWED,
  prepareSample,
  type MetricsOptions,
  type PreparedSample,
} from './prepare.js';
export type { MetricDefinition } from './definition.js';
export type { MetricName, MetricResult, MetricUsage } from './types.js';
export { parseInputLines } from './batch/input.js';
export { PII_RESIDUAL, recordToJson, scoreBatch } from './batch/run.js';
export { renderSummary, summarise } from './batch/summary.js';
export { CUT_MARKER, fitChunks } from './budget.js';
