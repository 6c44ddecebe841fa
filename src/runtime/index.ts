/**
 * The public surface of src/runtime/, the ground floor every job stands on: the runtime (clock, sleep,
 * randomness, ids, transport, logger, metrics registry) built once where ragwatch starts, its test double, the
 * logger, and the job context (what the scheduler hands a run). Imports from outside go through this file.
 */
export { createLogger, REDACT_PATHS, silentLogger, type Logger, type LoggerOptions } from './logger.js';
export type { JobRunContext, RunReason } from './job-context.js';
export {
  createRuntime,
  cryptoIds,
  idsFrom,
  noMetrics,
  systemClock,
  withMetrics,
  type Clock,
  type Ids,
  type JudgeRequestObservation,
  type LangfuseRequestObservation,
  type MetricsRegistry,
  type Runtime,
  type RuntimeOptions,
} from './runtime.js';
export {
  fakeClock,
  recordingMetrics,
  testRuntime,
  type FakeClock,
  type RecordingMetrics,
  type TestRuntime,
  type TestRuntimeOptions,
} from './test-runtime.js';
