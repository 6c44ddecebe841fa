/**
 * The one retry policy: a number of attempts, an exponential backoff with jitter and a cap, and a server's
 * Retry-After honoured up to a bound. Each dependency has a named policy (`backoffs` below); the callers decide
 * what is worth another attempt (`shouldRetry`), the loop, the waits and the abort handling are here.
 * `sleep` and `random` are injected so tests drive it without real waiting.
 */
import { NonRetryableError, RagwatchError } from '../errors.js';
import { sleep as realSleep, type Sleep } from './sleep.js';

export interface Backoff {
  /** The first wait's ceiling; doubled per attempt. */
  baseMs: number;
  /** The ceiling's cap. */
  maxMs: number;
  /**
   * How much of the ceiling is random: 1 (full jitter) draws uniformly in [0, ceiling]; 0.25 in
   * [0.75·ceiling, ceiling]; 0 waits the ceiling.
   */
  jitter: number;
}

export interface RetryPolicy extends Backoff {
  /** Attempts, the first included (Infinity: until it succeeds, fails for good or is aborted). */
  attempts: number;
  /** The longest server-requested wait honoured; longer ones are cut to this. */
  maxRetryAfterMs: number;
}

/** The named policies: each caller's attempts come from its configuration, its waits from here. */
export const backoffs = {
  /** Langfuse's HTTP calls: 500 ms doubling to 30 s, a quarter jittered. */
  langfuse: { baseMs: 500, maxMs: 30_000, jitter: 0.25, maxRetryAfterMs: 120_000 },
  /** Rounds of re-sending score events the ingestion did not take: 1 s doubling, a quarter jittered. */
  scoreRounds: { baseMs: 1000, maxMs: Number.POSITIVE_INFINITY, jitter: 0.25, maxRetryAfterMs: 0 },
  /** The judge and embeddings servers: 500 ms doubling to 20 s, full jitter. */
  judge: { baseMs: 500, maxMs: 20_000, jitter: 1, maxRetryAfterMs: 60_000 },
  /** The RAG service under test: 500 ms doubling to 30 s, full jitter. */
  target: { baseMs: 500, maxMs: 30_000, jitter: 1, maxRetryAfterMs: 60_000 },
  /** A state write meeting a connection cut (shared state): 0.5 s doubling to 5 s, no jitter. */
  stateWrite: { baseMs: 500, maxMs: 5000, jitter: 0, maxRetryAfterMs: 0 },
  /** Connecting at start-up: 2 s doubling to a minute, no jitter. */
  connect: { baseMs: 2000, maxMs: 60_000, jitter: 0, maxRetryAfterMs: 0 },
} as const satisfies Record<string, Backoff & { maxRetryAfterMs: number }>;

/** The wait before attempt `attempt + 1`: the jittered exponential ceiling, never less than a (capped) Retry-After. */
export function retryDelay(
  policy: Backoff & { maxRetryAfterMs: number },
  attempt: number,
  random: () => number,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  const drawn = jitter === 0 ? ceiling : Math.round(ceiling * (1 - jitter) + ceiling * jitter * random());
  if (retryAfterMs === undefined) return drawn;
  return Math.max(drawn, Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs));
}

/**
 * A server's requested wait in milliseconds: `retry-after-ms` (OpenAI's servers), else `retry-after` as
 * delta-seconds or an HTTP date. Takes the headers or a `retry-after` value. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Headers | Record<string, string | undefined> | string | null | undefined,
  nowMs: number,
): number | undefined {
  if (!headers) return undefined;
  if (typeof headers === 'string') return parseRetryAfter({ 'retry-after': headers }, nowMs);
  const get = (name: string): string | null | undefined =>
    typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get(name)
      : (headers as Record<string, string | undefined>)[name];
  const msValue = get('retry-after-ms')?.trim();
  if (msValue && /^\d+(\.\d+)?$/.test(msValue)) return Number(msValue);
  const value = get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** How many attempts a policy gets when its waits at their ceilings may add up to `totalWaitMs` (the first included). */
export function attemptsWithin(policy: Backoff, totalWaitMs: number): number {
  let attempts = 1;
  for (let waited = policy.baseMs; waited <= totalWaitMs && attempts < 1000; attempts++) {
    waited += Math.min(policy.maxMs, policy.baseMs * 2 ** attempts);
  }
  return attempts;
}

export interface RetryContext {
  /** 1 for the first attempt. */
  attempt: number;
  /** What the previous attempt threw; undefined on the first. */
  previous: unknown;
}

export interface RetryOptions {
  /** Whether what an attempt threw may pass on a later attempt. Not retried: thrown as it is. */
  shouldRetry: (err: unknown) => boolean;
  /** The server's requested wait for what an attempt threw, if any. */
  retryAfterMs?: (err: unknown) => number | undefined;
  /** Told before each wait. */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  signal?: AbortSignal | undefined;
  sleep?: Sleep | undefined;
  random?: (() => number) | undefined;
}

/** The caller's signal aborted while waiting between attempts; `last` is what the last attempt threw. */
export class RetryAbortedError extends RagwatchError {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
  ) {
    super('aborted while waiting to retry');
  }
}

/**
 * Runs `attempt` until it resolves, throws a `NonRetryableError` or something `shouldRetry` refuses, or the policy's attempts are spent
 * (then the last error is thrown). An abort while waiting throws `RetryAbortedError`.
 */
export async function retry<T>(
  policy: RetryPolicy,
  attempt: (context: RetryContext) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const attempts = Math.max(1, policy.attempts);
  let previous: unknown = undefined;
  for (let n = 1; ; n++) {
    try {
      return await attempt({ attempt: n, previous });
    } catch (err) {
      if (n >= attempts || err instanceof NonRetryableError || !options.shouldRetry(err)) throw err;
      previous = err;
    }
    const delayMs = retryDelay(policy, n, random, options.retryAfterMs?.(previous));
    options.onRetry?.(previous, n, delayMs);
    try {
      await sleep(delayMs, options.signal);
    } catch {
      throw new RetryAbortedError(previous, n);
    }
    if (options.signal?.aborted) throw new RetryAbortedError(previous, n);
  }
}
