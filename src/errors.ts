/**
 * The one error hierarchy. Callers tell errors apart with `instanceof` and read their fields; messages are for
 * people and are never parsed back.
 *
 * - `DependencyError`: a dependency (Langfuse, the judge, the RAG service under test, the state store) failed,
 *   with `kind` (`connection`, `timeout`, `http_503`, `schema_mismatch`, …), `status`, `retryable` and `outage`
 *   (whether it looks the same for every trace: the dependency is down or refuses our keys).
 * - `NonRetryableError`: retrying cannot help (bullmq's UnrecoverableError); the retry loop never retries it.
 * - `InputError`: bad configuration or input, nothing attempted (exit 2).
 * - `IncompleteRunError`: the work could not complete (exit 3).
 */

export type DependencyName = 'langfuse' | 'judge' | 'target' | 'state';

export class RagwatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A failure kind that looks the same whether the dependency is down or only this call failed. */
export function isOutageKind(kind: string): boolean {
  if (kind === 'connection' || kind === 'timeout' || kind === 'rate_limited' || isCredentialsKind(kind)) return true;
  const status = statusOfKind(kind);
  return status !== undefined && (status >= 500 || status === 429);
}

/** 401/403: the dependency refuses our key. The same for every call, so an outage, and a configuration error. */
export function isCredentialsKind(kind: string): boolean {
  return kind === 'http_401' || kind === 'http_403' || kind === 'unauthorized';
}

/** The HTTP status an `http_<status>` kind names. */
export function statusOfKind(kind: string): number | undefined {
  const status = /^http_(\d{3})$/.exec(kind);
  return status ? Number(status[1]) : undefined;
}

export abstract class DependencyError extends RagwatchError {
  abstract readonly dependency: DependencyName;

  constructor(
    message: string,
    /** What went wrong last: `connection`, `timeout`, `http_<status>`, `invalid_json`, `schema_mismatch`, … */
    readonly kind: string,
    /** HTTP status of the last answer, if one arrived. */
    readonly status: number | undefined,
    /** Whether a later attempt (another tick, another run) may succeed. */
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The dependency looks down (or refuses our keys) rather than troubled by this one call. */
  get outage(): boolean {
    return isOutageKind(this.kind);
  }
}

/** Retrying cannot help: the retry loop (src/internal/retry.ts) throws it at once. */
export class NonRetryableError extends RagwatchError {}

/** Bad configuration or input: nothing was attempted (exit code 2). `lines` are printed as they are. */
export class InputError extends NonRetryableError {
  readonly exitCode = 2;
  constructor(readonly lines: string[]) {
    super(lines.join('; '));
  }
}

/** The work could not complete: a dependency stayed unreachable after retries, or too much failed (exit code 3). */
export class IncompleteRunError extends RagwatchError {
  readonly exitCode = 3;
}

/** Whether `err` is the platform's abort or timeout (a DOMException from an AbortSignal). */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
]);

/**
 * The failure kind of anything thrown: a dependency error's own kind (`http_<status>` for an HTTP answer), a
 * system error's code read as `connection` or `timeout`, else `error`. Never read from a message.
 */
export function kindOf(err: unknown): string {
  if (err instanceof DependencyError)
    return err.kind === 'http' && err.status !== undefined ? `http_${err.status}` : err.kind;
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code ??
    (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'connection';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  return 'error';
}
