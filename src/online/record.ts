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
 * answers (waits doubling from 0.5 s up to 5 s), so work done is kept: the trace's claim lasts `online.leaseSeconds`,
 * and no other replica evaluates it again meanwhile. Gives up, with the write's error, once the run is abandoned or
 * the waits add up to `maxWaitMs` (another replica may hold the trace by then; evaluating it again writes the same
 * score ids).
 */
export async function recordThroughCut(write: () => Promise<void>, options: RecordOptions): Promise<void> {
  let waited = 0;
  for (let wait = 500; ; wait = Math.min(2 * wait, 5000)) {
    try {
      return await write();
    } catch (err) {
      const retry = options.shared && isStateError(err) && RETRIED.has(err.kind) && !options.signal.aborted;
      if (!retry || waited + wait > options.maxWaitMs) throw err;
      if (waited === 0) options.onRetry(err);
      waited += wait;
      await options.sleep(wait, options.signal).catch(() => {
        throw err;
      });
    }
  }
}
