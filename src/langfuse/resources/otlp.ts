/**
 * The one OTLP writer: every trace ragwatch writes to Langfuse over OTLP/HTTP JSON (the judge calls' traces on
 * v4, the experiment's item spans, the golden set's review traces) is built from this span model and sent by
 * `exportSpans`. One id rule (W3C trace and span ids, checked before anything is sent), one export path: a checked
 * HTTP request through the Langfuse client (its status, retries and deadline), where a partial success — spans
 * the server rejected in a 2xx answer — is an error, never a silent drop.
 */
import { randomBytes } from 'node:crypto';
import { VERSION } from '../../version.js';
import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';

export const OTLP_ROUTE = 'POST /api/public/otel/v1/traces';

export interface OtlpAttribute {
  key: string;
  value: { stringValue: string };
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1: internal. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  /** 0: unset, 2: error (with its message). */
  status: { code: number; message?: string };
}

/** A W3C trace id: 32 lower-case hex digits, not all zero. Only such a trace can carry OTLP spans. */
export const isTraceId = (id: string): boolean => /^[0-9a-f]{32}$/.test(id) && !/^0+$/.test(id);
/** A W3C span id: 16 lower-case hex digits, not all zero. */
export const isSpanId = (id: string): boolean => /^[0-9a-f]{16}$/.test(id) && !/^0+$/.test(id);
export const randomTraceId = (): string => randomBytes(16).toString('hex');
export const randomSpanId = (): string => randomBytes(8).toString('hex');

/** String attributes from a map; undefined values are left out. */
export function attributes(map: Record<string, string | undefined>): OtlpAttribute[] {
  return Object.entries(map)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([key, value]) => ({ key, value: { stringValue: value } }));
}

const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;

export interface SpanInput {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  attributes: Record<string, string | undefined>;
  /** Marks the span failed, with this message when there is one. */
  error?: { message?: string };
}

/** An internal span (the only kind ragwatch writes). */
export function span(input: SpanInput): OtlpSpan {
  const message = input.error?.message;
  return {
    traceId: input.traceId,
    spanId: input.spanId,
    ...(input.parentSpanId ? { parentSpanId: input.parentSpanId } : {}),
    name: input.name,
    kind: 1,
    startTimeUnixNano: nanos(input.startMs),
    endTimeUnixNano: nanos(input.endMs),
    status: input.error ? { code: 2, ...(message ? { message } : {}) } : { code: 0 },
    attributes: attributes(input.attributes),
  };
}

/** The export request body: one resource (ragwatch) and one scope (which part of ragwatch wrote the spans). */
export function exportBody(spans: readonly OtlpSpan[], scope: string): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes({ 'service.name': 'ragwatch', 'service.version': VERSION }) },
        scopeSpans: [{ scope: { name: scope, version: VERSION }, spans }],
      },
    ],
  };
}

/** Langfuse answered the export but rejected some of its spans (OTLP partial success). */
export class SpansRejectedError extends LangfuseApiError {
  constructor(
    readonly rejected: number,
    readonly total: number,
    status: number,
    serverMessage: string | undefined,
  ) {
    super(
      `${OTLP_ROUTE}: Langfuse rejected ${rejected} of ${total} spans: ${serverMessage ?? 'no message'}`,
      OTLP_ROUTE,
      'http',
      status,
      false,
      1,
    );
  }
}

/**
 * Sends the spans in one request. Throws `LangfuseApiError` when Langfuse does not take the request (after the
 * client's retries) and `SpansRejectedError` when it takes it but rejects spans; an id that breaks the id rule is
 * a programming error, thrown before anything is sent.
 */
export async function exportSpans(
  http: LangfuseHttp,
  spans: readonly OtlpSpan[],
  options: { scope: string; signal?: AbortSignal },
): Promise<void> {
  if (spans.length === 0) return;
  for (const s of spans) {
    if (!isTraceId(s.traceId)) throw new Error(`trace id must be 32 hex digits (got ${s.traceId.length} characters)`);
    if (!isSpanId(s.spanId)) throw new Error(`span id must be 16 hex digits (got ${s.spanId.length} characters)`);
  }
  const res = await http.request<{ partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } }>({
    method: 'POST',
    path: '/api/public/otel/v1/traces',
    route: OTLP_ROUTE,
    body: exportBody(spans, options.scope),
    signal: options.signal,
  });
  const rejected = Number(res.data?.partialSuccess?.rejectedSpans ?? 0);
  if (rejected > 0)
    throw new SpansRejectedError(rejected, spans.length, res.status, res.data?.partialSuccess?.errorMessage);
}
