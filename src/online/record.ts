import { attemptsWithin, backoffs, retry, RetryAbortedError } from '../internal/index.js';
import { isStateError, type StateError } from '../state/index.js';

/** State errors of a connection that may come back. */
const RETRIED: ReadonlySet<string> = new Set(['unreachable', 'timeout']);

export interface RecordOptions {
  /** Shared state (PostgreSQL): replicas hold claims; one host's SQLite file fails at once, as it always did. */
  shared: boolean;
  signal: AbortSignal;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The claim's lifetime: past it another replica may hold the trace, and waiting longer keeps nothing. */
  maxWaitMs: number;
  /** Sees the first failure that is retried. */
  onRetry: (err: StateError) => void;
}

/**
 * Writes what became of a trace. On shared state a write that meets a connection cut is retried until the server
 * answers (`backoffs.stateWrite`: waits doubling from 0.5 s up to 5 s), so work done is kept: the trace's claim
 * lasts `online.leaseSeconds`, and no other replica evaluates it again meanwhile. Gives up, with the write's error,
 * once the run is abandoned or the waits would add up to more than `maxWaitMs` (another replica may hold the trace
 * by then; evaluating it again writes the same score ids).
 */
export async function recordThroughCut(write: () => Promise<void>, options: RecordOptions): Promise<void> {
  const policy = { ...backoffs.stateWrite, attempts: attemptsWithin(backoffs.stateWrite, options.maxWaitMs) };
  try {
    await retry(policy, write, {
      shouldRetry: (err) => options.shared && isStateError(err) && RETRIED.has(err.kind) && !options.signal.aborted,
      onRetry: (err, attempt) => {
        if (attempt === 1) options.onRetry(err as StateError);
      },
      signal: options.signal,
      sleep: (ms) => options.sleep(ms, options.signal),
    });
  } catch (err) {
    throw err instanceof RetryAbortedError ? err.last : err;
  }
}
