import { isCredentialsKind, isOutageKind, kindOf } from '../errors.js';
import { JudgeCallError } from '../judge/index.js';
import { LangfuseApiError } from '../langfuse/index.js';
import type { MetricResult } from '../metrics/index.js';

/**
 * Failures reduced to short codes (`langfuse:http_503`, `judge:timeout`, `metric:faithfulness:invalid_json`).
 * Codes are what the ledger and the logs keep: an error message may quote the judge's answer or a trace,
 * so free text never leaves this module.
 */

export type Dependency = 'langfuse' | 'judge';

/**
 * What a trace's evaluation asks of its dependencies, told apart because one can fail while another works
 * (score writes answering 503 while reads and Langfuse's health endpoint are fine).
 */
export type Channel = 'langfuse:read' | 'langfuse:write' | 'judge';

export interface Failure {
  /** Which dependency to probe before blaming the trace; null for failures that are the trace's own. */
  dependency: Dependency | null;
  code: string;
  /**
   * Connection errors, timeouts, 5xx, 429, answers that are not the API's (an HTML page, a wrong shape) and
   * rejected credentials look the same whether the dependency is down or only this trace fails.
   */
  outageLike: boolean;
  /** The part of the dependency that failed, when known. */
  channel?: Channel;
}

/** Kinds a code may carry; anything else (`internal`, a bug's) is said as `error`. */
const KNOWN_KINDS = new Set([
  'timeout',
  'connection',
  'invalid_json',
  'schema_mismatch',
  'truncated',
  'aborted',
  'rate_limited',
  'refusal',
  'empty_answer',
  'not_found',
  'unauthorized',
  'invalid_request',
  'protocol',
  'invalid_response',
]);

/** A typed failure kind as it goes into a code: a known kind or `http_<status>`, else `error`. */
function codeKind(kind: string): string {
  return KNOWN_KINDS.has(kind) || /^http_\d{3}$/.test(kind) ? kind : 'error';
}

export { isCredentialsKind, isOutageKind };

/** Whether a failure code (`langfuse:http_401`, `metric:faithfulness:http_403`, ...) says credentials were refused. */
export function isCredentialsCode(code: string): boolean {
  return isCredentialsKind(code.slice(code.lastIndexOf(':') + 1).replace(/^ingestion_/, ''));
}

/** An error thrown while talking to Langfuse (listing, fetching, writing). */
export function langfuseFailure(err: unknown): Failure {
  const kind = codeKind(kindOf(err));
  const outageLike = err instanceof LangfuseApiError ? err.outage : isOutageKind(kind);
  return { dependency: 'langfuse', code: `langfuse:${kind}`, outageLike };
}

/**
 * A metric that came back `failed`. The judge answering something that is not an OpenAI-style answer at all
 * (`invalid_response`: an HTML page) is the server's fault; an answer whose content is unusable
 * (`invalid_json`, `schema_mismatch`, `truncated`) may well be the trace's.
 */
export function metricFailure(result: Extract<MetricResult, { status: 'failed' }>): Failure {
  const kind = codeKind(result.kind);
  return {
    dependency: 'judge',
    code: `metric:${result.metric}:${kind}`,
    outageLike: isOutageKind(kind) || kind === 'invalid_response',
    channel: 'judge',
  };
}

/** Anything else thrown while evaluating a trace (judge errors that escaped a metric, bugs). */
export function unexpectedFailure(err: unknown, stage: string): Failure {
  if (err instanceof JudgeCallError)
    return { dependency: 'judge', code: `judge:${err.kind}`, outageLike: err.outage, channel: 'judge' };
  if (err instanceof LangfuseApiError) return langfuseFailure(err);
  return { dependency: null, code: `${stage}:${codeKind(kindOf(err))}`, outageLike: false };
}

/**
 * The ingestion answer for one score that did not go through: the request's failure (`requestKind`: an HTML
 * page, a body of the wrong shape, a dropped connection) or the event's own status in the 207 answer.
 */
export function scoreWriteFailure(status: number | undefined, retryable: boolean, requestKind?: string): Failure {
  const byRequest = requestKind !== undefined && requestKind !== 'http';
  const kind = byRequest ? requestKind : status === undefined ? 'unacknowledged' : `http_${status}`;
  return {
    dependency: 'langfuse',
    code: `langfuse:ingestion_${kind}`,
    outageLike: retryable || isCredentialsKind(kind),
    channel: 'langfuse:write',
  };
}
