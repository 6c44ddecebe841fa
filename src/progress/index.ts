export { countingJudge } from './judge.js';
export {
  createProgress,
  DEFAULT_LOG_EVERY_MS,
  noProgress,
  systemTimers,
  type Progress,
  type ProgressOptions,
  type Timers,
} from './reporter.js';
export { formatDuration, formatProgress, type ProgressSnapshot, type StageOptions } from './state.js';
