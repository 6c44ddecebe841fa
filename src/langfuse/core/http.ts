import { VERSION } from '../../version.js';
import {
  backoffs,
  parseRetryAfter,
  retry,
  RetryAbortedError,
  type RetryContext,
  type RetryPolicy,
  type Sleep,
} from '../../internal/index.js';
import { DependencyError, isOutageKind, kindOf } from '../../errors.js';
import { JsonSyntaxError } from './capped-json.js';

/**
 * The HTTP core every Langfuse resource goes through: basic auth, a deadline per attempt, retries with
 * exponential backoff and jitter on connection errors, timeouts, 429 (Retry-After honoured) and 5xx.
 * `fetch`, `sleep` and `random` are injected so tests drive faults and backoff without real waiting.
 */

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string>;

export interface LangfuseRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Low-cardinality label for metrics and errors, e.g. `GET /api/public/traces/{id}`. Defaults to method + path. */
  route?: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Non-2xx statuses that are answers, not errors (e.g. 404 when probing); returned to the caller as-is. */
  accept?: readonly number[];
  signal?: AbortSignal;
  /**
   * Reads an accepted body as it streams in, instead of buffering it whole and parsing it (a trace under its byte
   * budget, see read-budget.ts). Throwing JsonSyntaxError makes it a body that is not JSON; any other error, a
   * broken connection.
   */
  readBody?: (body: ReadableStream<Uint8Array>) => Promise<unknown>;
}

export interface LangfuseResponse<T = unknown> {
  status: number;
  data: T;
}

export type RequestOutcome =
  | 'ok'
  | 'not_found'
  | 'client_error'
  | 'unauthorized'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'connection_error';

export interface RequestEvent {
  route: string;
  outcome: RequestOutcome;
  /** Absent when no response arrived. */
  status?: number;
  latencyMs: number;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface LangfuseHttpOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** Per-attempt deadline, response body included. */
  timeoutMs?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Upper bound on a server's Retry-After we are willing to wait. */
  maxRetryAfterMs?: number;
  fetch?: typeof globalThis.fetch;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  onRequest?: (event: RequestEvent) => void;
}

export interface LangfuseHttp {
  readonly baseUrl: string;
  /** Resolves with the parsed JSON body on 2xx or an accepted status; throws `LangfuseApiError` otherwise. */
  request<T = unknown>(req: LangfuseRequest): Promise<LangfuseResponse<T>>;
}

/** `protocol`: the answer was JSON but not of the API's shape (see `shapes.ts`). */
export type LangfuseErrorKind = 'http' | 'timeout' | 'connection' | 'invalid_json' | 'protocol' | 'aborted';

/** A Langfuse call that failed after every allowed attempt. Never carries credentials. */
export class LangfuseApiError extends DependencyError {
  readonly dependency = 'langfuse' as const;
  declare readonly kind: LangfuseErrorKind;

  constructor(
    message: string,
    readonly route: string,
    kind: LangfuseErrorKind,
    /** HTTP status of the last response, if any arrived. */
    status: number | undefined,
    /** Whether a later attempt (another tick) may succeed. */
    retryable: boolean,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, kind, status, retryable, options);
  }

  /** Down, answering nonsense (an HTML page, a wrong shape) or refusing our keys: the same for every trace. */
  override get outage(): boolean {
    return this.kind === 'invalid_json' || this.kind === 'protocol' || isOutageKind(kindOf(this));
  }

  /** The server could not be reached, kept failing or answered nonsense: the "unreachable" of exit code 3. */
  get unreachable(): boolean {
    if (
      this.kind === 'timeout' ||
      this.kind === 'connection' ||
      this.kind === 'invalid_json' ||
      this.kind === 'protocol'
    )
      return true;
    return this.status !== undefined && (this.status >= 500 || this.status === 429);
  }
}

export function createLangfuseHttp(options: LangfuseHttpOptions): LangfuseHttp {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => performance.now());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetryPolicy = {
    attempts: Math.max(1, options.maxAttempts ?? 5),
    baseMs: options.initialBackoffMs ?? backoffs.langfuse.baseMs,
    maxMs: options.maxBackoffMs ?? backoffs.langfuse.maxMs,
    jitter: backoffs.langfuse.jitter,
    maxRetryAfterMs: options.maxRetryAfterMs ?? backoffs.langfuse.maxRetryAfterMs,
  };
  const authorization = `Basic ${Buffer.from(`${options.publicKey}:${options.secretKey}`).toString('base64')}`;
  const secrets = [options.secretKey, authorization].filter((s) => s.length >= 4);
  const scrub = (text: string) => secrets.reduce((acc, s) => acc.split(s).join('[redacted]'), text);
  /** Retryable and not an abort: worth another attempt. */
  const shouldRetry = (err: unknown) => err instanceof LangfuseApiError && err.retryable && err.kind !== 'aborted';

  async function request<T>(req: LangfuseRequest): Promise<LangfuseResponse<T>> {
    const route = req.route ?? `${req.method} ${req.path}`;
    const url = buildUrl(baseUrl, req.path, req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = {
      authorization,
      accept: 'application/json',
      'user-agent': `ragwatch/${VERSION}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';

    let retryAfterMs: number | undefined;
    let lastStatus: number | undefined;
    async function once({ attempt }: RetryContext): Promise<LangfuseResponse<T>> {
      if (req.signal?.aborted)
        throw new LangfuseApiError(`${route}: aborted`, route, 'aborted', lastStatus, true, attempt - 1);
      retryAfterMs = undefined;
      const started = now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
      const onOuterAbort = () => controller.abort(req.signal?.reason);
      req.signal?.addEventListener('abort', onOuterAbort, { once: true });
      try {
        const res = await fetchImpl(url, { method: req.method, headers, body, signal: controller.signal });
        const status = res.status;
        lastStatus = status;
        const accepted = (status >= 200 && status < 300) || req.accept?.includes(status) === true;
        const text = accepted && req.readBody ? '' : await res.text();
        const parsed = accepted ? (req.readBody ? await readWith(req.readBody, res) : parseJson(text)) : undefined;
        const latencyMs = now() - started;
        if (parsed !== undefined) {
          if (parsed.ok) {
            options.onRequest?.({ route, outcome: status === 404 ? 'not_found' : 'ok', status, latencyMs, attempt });
            return { status, data: parsed.value as T };
          }
          // A proxy's HTML page or a cut-off body: worth another attempt.
          options.onRequest?.({ route, outcome: 'server_error', status, latencyMs, attempt });
          throw new LangfuseApiError(
            `${route}: HTTP ${status} with a body that is not JSON`,
            route,
            'invalid_json',
            status,
            true,
            attempt,
          );
        }
        const retryable = status === 429 || status >= 500 || status === 408;
        options.onRequest?.({ route, outcome: outcomeOf(status), status, latencyMs, attempt });
        if (status === 429 || status === 503) retryAfterMs = parseRetryAfter(res.headers, Date.now());
        throw new LangfuseApiError(
          scrub(`${route}: HTTP ${status}${describeBody(text)}`),
          route,
          'http',
          status,
          retryable,
          attempt,
        );
      } catch (err) {
        if (err instanceof LangfuseApiError) throw err;
        const latencyMs = now() - started;
        if (req.signal?.aborted)
          throw new LangfuseApiError(`${route}: aborted`, route, 'aborted', undefined, true, attempt);
        const timedOut = controller.signal.aborted;
        options.onRequest?.({ route, outcome: timedOut ? 'timeout' : 'connection_error', latencyMs, attempt });
        lastStatus = undefined;
        throw timedOut
          ? new LangfuseApiError(
              `${route}: no answer within ${timeoutMs} ms`,
              route,
              'timeout',
              undefined,
              true,
              attempt,
            )
          : new LangfuseApiError(
              scrub(`${route}: connection failed: ${causeOf(err)}`),
              route,
              'connection',
              undefined,
              true,
              attempt,
              { cause: err },
            );
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onOuterAbort);
      }
    }

    try {
      return await retry(policy, once, {
        shouldRetry,
        retryAfterMs: () => retryAfterMs,
        signal: req.signal,
        sleep: options.sleep,
        random: options.random,
      });
    } catch (err) {
      if (err instanceof RetryAbortedError) {
        const last = err.last as LangfuseApiError;
        throw new LangfuseApiError(`${route}: aborted`, route, 'aborted', last.status, true, err.attempts);
      }
      if (!shouldRetry(err)) throw err;
      // Every attempt failed retryably.
      const final = err as LangfuseApiError;
      throw new LangfuseApiError(
        `${final.message} (after ${policy.attempts} attempts)`,
        route,
        final.kind,
        final.status,
        final.retryable,
        policy.attempts,
        { cause: final.cause },
      );
    }
  }

  return { baseUrl, request };
}

/** A body read by the request's own reader: not JSON is `ok: false`; a broken stream throws (a connection error). */
async function readWith(
  read: (body: ReadableStream<Uint8Array>) => Promise<unknown>,
  res: Response,
): Promise<{ ok: true; value: unknown } | { ok: false }> {
  if (res.body === null) return { ok: true, value: null };
  try {
    return { ok: true, value: await read(res.body) };
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { ok: false };
    throw err;
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim().length === 0) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function outcomeOf(status: number): RequestOutcome {
  if (status === 404) return 'not_found';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'client_error';
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value as readonly string[]) params.append(key, v);
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

function describeBody(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  let message = trimmed;
  try {
    const parsed = JSON.parse(trimmed) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
    else if (typeof parsed.error === 'string') message = parsed.error;
  } catch {
    // not JSON: keep the text
  }
  return `: ${message.replace(/\s+/g, ' ').slice(0, 200)}`;
}

function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    return code ? `${code}` : cause.message;
  }
  return err.message;
}
