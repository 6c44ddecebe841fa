/**
 * The public surface of src/runtime/, the ground floor every job stands on: the logger and the job context
 * (what the scheduler hands a run). Imports from outside go through this file.
 */
export { createLogger, REDACT_PATHS, silentLogger, type Logger, type LoggerOptions } from './logger.js';
export type { JobRunContext, RunReason } from './job-context.js';
