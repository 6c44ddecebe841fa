import type { LangfuseHttp } from '../core/http.js';
import { exportSpans, span, type OtlpSpan } from './otlp.js';

/**
 * ragwatch's own traces (review traces, …) as spans of the one OTLP writer (otlp.ts), which v3 and v4 servers
 * both accept. The trace id is the caller's (32 hex digits), so writing the same trace again updates it instead
 * of adding one.
 */

export interface ObservationToWrite {
  name: string;
  /** Langfuse observation type (`span`, `retriever`, `generation`, …). */
  type: string;
  input?: unknown;
  output?: unknown;
}

export interface TraceToWrite {
  /** 32 lower-case hex digits, not all zero. */
  id: string;
  name: string;
  /** Langfuse environment (ragwatch's own, so the online job never samples it). */
  environment: string;
  input: unknown;
  output: unknown;
  metadata?: Record<string, unknown>;
  tags?: string[];
  /** Start of the trace, ms since the epoch. */
  timestampMs: number;
  /** Children of the root span, in order. */
  observations?: ObservationToWrite[];
}

/** The OTLP scope of ragwatch's own traces. */
const SCOPE = 'ragwatch';

const serialize = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** Span ids derived from the trace id, so a rewrite replaces the same observations. */
function spanId(traceId: string, index: number): string {
  const n = (parseInt(traceId.slice(16, 24), 16) + index) >>> 0;
  return `${traceId.slice(0, 8)}${n.toString(16).padStart(8, '0')}`;
}

export function traceSpans(trace: TraceToWrite): OtlpSpan[] {
  const time = { startMs: trace.timestampMs, endMs: trace.timestampMs + 1 };
  const rootId = spanId(trace.id, 0);
  const root = span({
    traceId: trace.id,
    spanId: rootId,
    name: trace.name,
    ...time,
    attributes: {
      'langfuse.trace.name': trace.name,
      'langfuse.trace.input': serialize(trace.input),
      'langfuse.trace.output': serialize(trace.output),
      'langfuse.trace.metadata': trace.metadata ? JSON.stringify(trace.metadata) : undefined,
      'langfuse.trace.tags': trace.tags && trace.tags.length > 0 ? JSON.stringify(trace.tags) : undefined,
      'langfuse.environment': trace.environment,
      'langfuse.observation.type': 'span',
      'langfuse.observation.input': serialize(trace.input),
      'langfuse.observation.output': serialize(trace.output),
    },
  });
  const children = (trace.observations ?? []).map((o, i) =>
    span({
      traceId: trace.id,
      spanId: spanId(trace.id, i + 1),
      parentSpanId: rootId,
      name: o.name,
      ...time,
      attributes: {
        'langfuse.environment': trace.environment,
        'langfuse.observation.type': o.type,
        'langfuse.observation.input': o.input === undefined ? undefined : serialize(o.input),
        'langfuse.observation.output': o.output === undefined ? undefined : serialize(o.output),
      },
    }),
  );
  return [root, ...children];
}

/**
 * Exports the traces in requests of at most `perRequest` traces; throws `LangfuseApiError` on any rejection
 * (`SpansRejectedError` when Langfuse took a request but rejected spans of it).
 */
export async function writeTraces(
  http: LangfuseHttp,
  traces: readonly TraceToWrite[],
  options: { perRequest?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const size = Math.max(1, options.perRequest ?? 50);
  for (let i = 0; i < traces.length; i += size) {
    const spans = traces.slice(i, i + size).flatMap(traceSpans);
    await exportSpans(http, spans, { scope: SCOPE, signal: options.signal });
  }
}
