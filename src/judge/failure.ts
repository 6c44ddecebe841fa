/**
 * What went wrong in one judge or embeddings HTTP attempt, classified for the retry policy: connection
 * errors, timeouts, 408/409/429/5xx and unusable answers are retryable; other 4xx are not (a request the
 * server rejects will be rejected again).
 */
import OpenAI from 'openai';
import { parseRetryAfter } from '../internal/index.js';

export interface AttemptFailure {
  /** `connection`, `timeout`, `aborted`, `http_<status>`, `invalid_json`, `schema_mismatch`, `truncated`, `empty_answer`, `invalid_response`. */
  kind: string;
  message: string;
  retryable: boolean;
  /** Server-requested wait (Retry-After / retry-after-ms), in milliseconds. */
  retryAfterMs?: number;
  /** The answer arrived but cannot be used: the next attempt should carry a repair message. */
  unusable?: { content: string };
  /** The connection error, kept as the call error's cause (its system code says what refused). */
  cause?: unknown;
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);

export function classifyError(
  err: unknown,
  deadlineHit: boolean,
  callerAborted: boolean,
  now: () => number,
): AttemptFailure {
  if (callerAborted) return { kind: 'aborted', message: 'the call was aborted by its caller', retryable: false };
  if (deadlineHit || err instanceof OpenAI.APIConnectionTimeoutError) {
    return { kind: 'timeout', message: 'no answer before the deadline', retryable: true };
  }
  if (err instanceof OpenAI.APIUserAbortError)
    return { kind: 'aborted', message: 'the request was aborted', retryable: false };
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return { kind: 'connection', message: `connection error${detail}`, retryable: true, cause: err };
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const status = err.status;
    const retryable = RETRYABLE_STATUS.has(status) || status >= 500;
    const retryAfterMs = parseRetryAfter(err.headers, now());
    return {
      kind: `http_${status}`,
      message: shorten(err.message),
      retryable,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  // A body that is not JSON, or a shape the SDK cannot read: the server answered nonsense.
  return {
    kind: 'invalid_response',
    message: shorten(err instanceof Error ? err.message : String(err)),
    retryable: true,
  };
}

export function shorten(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
