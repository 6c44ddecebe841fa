/**
 * The judge's use of the one retry policy (src/internal/retry.ts), shared by the chat and embeddings clients:
 * a concurrency slot per attempt (released while
 * backing off), a deadline per attempt, exponential backoff with full jitter (at least the server's
 * Retry-After), and up to `maxAttempts` attempts. Every attempt is reported through `onRequest`.
 */
import { classifyError, type AttemptFailure } from './failure.js';
import {
  backoffs,
  retry,
  RetryAbortedError,
  retryDelay,
  type Limiter,
  type RetryContext,
  type Sleep,
} from '../internal/index.js';
import { JudgeCallError } from './types.js';

export interface RequestEvent {
  kind: 'chat' | 'embeddings';
  outcome: 'ok' | 'retry' | 'error';
  errorKind?: string;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

export interface RetryPolicy {
  kind: 'chat' | 'embeddings';
  maxAttempts: number;
  timeoutMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Longest Retry-After honoured; longer ones are cut to this. */
  maxRetryAfterMs: number;
  limiter: Limiter;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  onRequest?: (event: RequestEvent) => void;
}

export type AttemptResult<T> =
  | { ok: true; value: T; promptTokens: number; completionTokens: number }
  | { ok: false; failure: AttemptFailure; promptTokens: number; completionTokens: number };

export interface RetryOutcome<T> {
  value: T;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

/** One attempt's failure, thrown to the retry loop. */
class AttemptFailed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.message);
  }
}

/**
 * Runs `attempt` until it succeeds, fails for good, or `maxAttempts` is reached. `attempt` receives the
 * attempt number (1-based), the previous failure (for repair messages) and the attempt's abort signal.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  what: string,
  signal: AbortSignal | undefined,
  attempt: (n: number, previous: AttemptFailure | undefined, signal: AbortSignal) => Promise<AttemptResult<T>>,
  /** Served before lower ones when calls wait for a slot (the judge client: the prompt's length). */
  priority = 0,
): Promise<RetryOutcome<T>> {
  const started = policy.now();
  let promptTokens = 0;
  let completionTokens = 0;
  let calls = 0;
  const spent = () => ({ calls, promptTokens, completionTokens, latencyMs: policy.now() - started });

  async function once({ attempt: n, previous }: RetryContext): Promise<RetryOutcome<T>> {
    let release: () => void;
    try {
      release = await policy.limiter.acquire(signal, priority);
    } catch {
      throw new JudgeCallError(`${what}: aborted while waiting for a judge slot`, true, 'aborted', n - 1, spent());
    }
    calls = n;
    const attemptStart = policy.now();
    // One controller per attempt, aborted by the deadline or by the caller (a listener rather than
    // AbortSignal.any, which costs several objects and weak references per call).
    const attemptAbort = new AbortController();
    let deadlineHit = false;
    const timer = setTimeout(() => {
      deadlineHit = true;
      attemptAbort.abort(new Error('deadline'));
    }, policy.timeoutMs);
    const forward = () => attemptAbort.abort(signal!.reason);
    if (signal) {
      if (signal.aborted) forward();
      else signal.addEventListener('abort', forward, { once: true });
    }
    let result: AttemptResult<T>;
    try {
      result = await attempt(n, (previous as AttemptFailed | undefined)?.failure, attemptAbort.signal);
    } catch (err) {
      result = {
        ok: false,
        failure: classifyError(err, deadlineHit, signal?.aborted ?? false, policy.now),
        promptTokens: 0,
        completionTokens: 0,
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
      release();
    }
    promptTokens += result.promptTokens;
    completionTokens += result.completionTokens;
    const latencyMs = policy.now() - attemptStart;
    if (result.ok) {
      policy.onRequest?.({
        kind: policy.kind,
        outcome: 'ok',
        latencyMs,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
      });
      return { value: result.value, attempts: n, promptTokens, completionTokens, latencyMs: policy.now() - started };
    }
    const failure = result.failure;
    const last = !failure.retryable || n >= policy.maxAttempts;
    policy.onRequest?.({
      kind: policy.kind,
      outcome: last ? 'error' : 'retry',
      errorKind: failure.kind,
      latencyMs,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
    });
    if (last) {
      const retryable = failure.retryable || failure.kind === 'aborted';
      throw new JudgeCallError(
        `${what} failed after ${n} attempt${n === 1 ? '' : 's'}: ${failure.kind}: ${failure.message}`,
        retryable,
        failure.kind,
        n,
        spent(),
        failure.cause === undefined ? undefined : { cause: failure.cause },
      );
    }
    throw new AttemptFailed(failure);
  }

  try {
    return await retry(policyOf(policy), once, {
      shouldRetry: (err) => err instanceof AttemptFailed,
      retryAfterMs: (err) => (err as AttemptFailed).failure.retryAfterMs,
      signal,
      sleep: policy.sleep,
      random: policy.random,
    });
  } catch (err) {
    if (err instanceof RetryAbortedError)
      throw new JudgeCallError(`${what}: aborted while backing off`, true, 'aborted', calls, spent());
    throw err;
  }
}

function policyOf(policy: Pick<RetryPolicy, 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs' | 'maxRetryAfterMs'>) {
  return {
    attempts: policy.maxAttempts,
    baseMs: policy.backoffBaseMs,
    maxMs: policy.backoffMaxMs,
    jitter: backoffs.judge.jitter,
    maxRetryAfterMs: policy.maxRetryAfterMs,
  };
}

/** Full jitter: uniform in [0, min(max, base·2^(n-1))], but never less than the server's Retry-After. */
export function backoffMs(
  policy: Pick<RetryPolicy, 'backoffBaseMs' | 'backoffMaxMs' | 'maxRetryAfterMs' | 'random'>,
  attempt: number,
  failure: AttemptFailure,
): number {
  return retryDelay(policyOf({ ...policy, maxAttempts: attempt + 1 }), attempt, policy.random, failure.retryAfterMs);
}
