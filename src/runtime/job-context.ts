/** What a scheduled job is handed each time it runs: why it runs and how it is told to stop. */
export type RunReason = 'scheduled' | 'catch_up' | 'manual';

export interface JobRunContext {
  reason: RunReason;
  /** Soft stop: finish what is in flight, take nothing new. */
  stop: AbortSignal;
  /** Hard stop: abandon in-flight work. */
  signal: AbortSignal;
}
