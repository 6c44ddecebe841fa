/** Public surface of the metrics module. */
export { scoreSample, defaultMetricsOptions, type ScoreDeps } from './score-sample.js';
export { releaseGate, diagnose, type GateResult, type GateFailure, type Diagnosis, type DiagnosisStatus, type Thresholds } from './gate.js';
export { detectLanguage, promptLanguage, type PromptLanguage } from './language.js';
export { getMetric, isMetricName, allMetricNames, parseMetricList } from './registry.js';
export { averagePrecision, cosine } from './math.js';
export { noiseSensitivity } from './noise-sensitivity.js';
export { promptVersion, SCHEMA_NAMES, type JudgeTask } from './prompts/build.js';
export { judgePromptVersions } from './prompt-versions.js';
export { prepareSample, type MetricsOptions, type PreparedSample } from './prepare.js';
export type { MetricDefinition } from './definition.js';
export type { MetricName, MetricResult, MetricUsage } from './types.js';
