import { JudgeCallError } from '../judge/types.js';
import type { MetricResult } from '../metrics/types.js';

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

const KNOWN_KINDS = [
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
];

/** The most specific known kind named in a piece of text, or `error`. */
export function kindFromText(text: string): string {
  // `kind: message` is how judge failures are phrased (`http_503: ...`, `connection: ...`).
  const lead = /^\s*([a-z][a-z0-9_]*)\s*:/.exec(text)?.[1];
  if (lead && (/^http_\d{3}$/.test(lead) || KNOWN_KINDS.includes(lead))) return lead;
  const http = /\bhttp[_ ]?(\d{3})\b/i.exec(text) ?? /\bstatus[ :=]*(\d{3})\b/i.exec(text);
  if (http) return `http_${http[1]}`;
  if (/ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|socket hang up|fetch failed|other side closed|connection (reset|refused|error)/i.test(text)) return 'connection';
  if (/ETIMEDOUT|timed? ?out|deadline/i.test(text)) return 'timeout';
  for (const kind of KNOWN_KINDS) if (new RegExp(`\\b${kind}\\b`, 'i').test(text)) return kind;
  return 'error';
}

export function isOutageKind(kind: string): boolean {
  if (kind === 'connection' || kind === 'timeout' || kind === 'rate_limited' || isCredentialsKind(kind)) return true;
  const status = /^http_(\d{3})$/.exec(kind);
  return status !== null && (Number(status[1]) >= 500 || Number(status[1]) === 429);
}

/** 401/403: the dependency refuses our key. The same for every trace, so an outage, and a configuration error. */
export function isCredentialsKind(kind: string): boolean {
  return kind === 'http_401' || kind === 'http_403' || kind === 'unauthorized';
}

/** Whether a failure code (`langfuse:http_401`, `metric:faithfulness:http_403`, ...) says credentials were refused. */
export function isCredentialsCode(code: string): boolean {
  return isCredentialsKind(code.slice(code.lastIndexOf(':') + 1).replace(/^ingestion_/, ''));
}

interface LangfuseLikeError {
  name: string;
  kind: string;
  status?: number;
}

function isLangfuseError(err: unknown): err is LangfuseLikeError {
  return err instanceof Error && err.name === 'LangfuseApiError' && typeof (err as { kind?: unknown }).kind === 'string';
}

/** An error thrown while talking to Langfuse (listing, fetching, writing). */
export function langfuseFailure(err: unknown): Failure {
  let kind: string;
  if (isLangfuseError(err)) kind = err.kind === 'http' && err.status !== undefined ? `http_${err.status}` : err.kind;
  else kind = kindFromText(err instanceof Error ? `${err.name} ${err.message} ${String((err as { code?: unknown }).code ?? '')}` : String(err));
  // An HTML page or a body of the wrong shape comes from the server (or a proxy in front of it), not the trace.
  const answeredNonsense = kind === 'invalid_json' || kind === 'protocol';
  return { dependency: 'langfuse', code: `langfuse:${kind}`, outageLike: answeredNonsense || isOutageKind(kind) };
}

/**
 * A metric that came back `failed`. The judge answering something that is not an OpenAI-style answer at all
 * (`invalid_response`: an HTML page) is the server's fault; an answer whose content is unusable
 * (`invalid_json`, `schema_mismatch`, `truncated`) may well be the trace's.
 */
export function metricFailure(result: Extract<MetricResult, { status: 'failed' }>): Failure {
  const kind = kindFromText(result.error);
  return { dependency: 'judge', code: `metric:${result.metric}:${kind}`, outageLike: isOutageKind(kind) || kind === 'invalid_response', channel: 'judge' };
}

/** Anything else thrown while evaluating a trace (judge errors that escaped a metric, bugs). */
export function unexpectedFailure(err: unknown, stage: string): Failure {
  if (err instanceof JudgeCallError) {
    return { dependency: 'judge', code: `judge:${err.kind}`, outageLike: isOutageKind(err.kind) || err.kind === 'invalid_response', channel: 'judge' };
  }
  if (isLangfuseError(err)) return langfuseFailure(err);
  const kind = kindFromText(err instanceof Error ? `${err.name} ${err.message}` : String(err));
  return { dependency: null, code: `${stage}:${kind}`, outageLike: false };
}

/**
 * The ingestion answer for one score that did not go through: the request's failure (`requestKind`: an HTML
 * page, a body of the wrong shape, a dropped connection) or the event's own status in the 207 answer.
 */
export function scoreWriteFailure(status: number | undefined, retryable: boolean, requestKind?: string): Failure {
  const byRequest = requestKind !== undefined && requestKind !== 'http';
  const kind = byRequest ? requestKind : status === undefined ? 'unacknowledged' : `http_${status}`;
  return { dependency: 'langfuse', code: `langfuse:ingestion_${kind}`, outageLike: retryable || isCredentialsKind(kind), channel: 'langfuse:write' };
}
