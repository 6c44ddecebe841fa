import { VERSION } from '../../version.js';
import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';

/**
 * ragwatch's own traces (review traces, …) written over Langfuse's OTLP endpoint, which v3 and v4 servers both
 * accept. One checked HTTP request per batch: a rejected span is an error, never a silent drop. The trace id is
 * the caller's (32 hex digits), so writing the same trace again updates it instead of adding one.
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

type OtlpValue = { stringValue: string };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: OtlpValue }>;
  status: { code: number };
}

export const isTraceId = (id: string): boolean => /^[0-9a-f]{32}$/.test(id) && !/^0+$/.test(id);

const serialize = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null));
const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;

/** Span ids derived from the trace id, so a rewrite replaces the same observations. */
function spanId(traceId: string, index: number): string {
  const n = (parseInt(traceId.slice(16, 24), 16) + index) >>> 0;
  return `${traceId.slice(0, 8)}${n.toString(16).padStart(8, '0')}`;
}

function attributes(map: Record<string, string | undefined>): OtlpSpan['attributes'] {
  return Object.entries(map)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([key, value]) => ({ key, value: { stringValue: value } }));
}

export function traceSpans(trace: TraceToWrite): OtlpSpan[] {
  if (!isTraceId(trace.id)) throw new Error(`trace id must be 32 hex digits (got ${trace.id.length} characters)`);
  const time = { startTimeUnixNano: nanos(trace.timestampMs), endTimeUnixNano: nanos(trace.timestampMs + 1) };
  const rootId = spanId(trace.id, 0);
  const root: OtlpSpan = {
    traceId: trace.id,
    spanId: rootId,
    name: trace.name,
    kind: 1,
    ...time,
    status: { code: 0 },
    attributes: attributes({
      'langfuse.trace.name': trace.name,
      'langfuse.trace.input': serialize(trace.input),
      'langfuse.trace.output': serialize(trace.output),
      'langfuse.trace.metadata': trace.metadata ? JSON.stringify(trace.metadata) : undefined,
      'langfuse.trace.tags': trace.tags && trace.tags.length > 0 ? JSON.stringify(trace.tags) : undefined,
      'langfuse.environment': trace.environment,
      'langfuse.observation.type': 'span',
      'langfuse.observation.input': serialize(trace.input),
      'langfuse.observation.output': serialize(trace.output),
    }),
  };
  const children = (trace.observations ?? []).map<OtlpSpan>((o, i) => ({
    traceId: trace.id,
    spanId: spanId(trace.id, i + 1),
    parentSpanId: rootId,
    name: o.name,
    kind: 1,
    ...time,
    status: { code: 0 },
    attributes: attributes({
      'langfuse.environment': trace.environment,
      'langfuse.observation.type': o.type,
      'langfuse.observation.input': o.input === undefined ? undefined : serialize(o.input),
      'langfuse.observation.output': o.output === undefined ? undefined : serialize(o.output),
    }),
  }));
  return [root, ...children];
}

/** Exports the traces in requests of at most `perRequest` traces; throws `LangfuseApiError` on any rejection. */
export async function writeTraces(
  http: LangfuseHttp,
  traces: readonly TraceToWrite[],
  options: { perRequest?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const route = 'POST /api/public/otel/v1/traces';
  const size = Math.max(1, options.perRequest ?? 50);
  for (let i = 0; i < traces.length; i += size) {
    const spans = traces.slice(i, i + size).flatMap(traceSpans);
    const res = await http.request<{ partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } }>({
      method: 'POST',
      path: '/api/public/otel/v1/traces',
      route,
      body: {
        resourceSpans: [
          {
            resource: { attributes: attributes({ 'service.name': 'ragwatch', 'service.version': VERSION }) },
            scopeSpans: [{ scope: { name: 'ragwatch', version: VERSION }, spans }],
          },
        ],
      },
      signal: options.signal,
    });
    const rejected = Number(res.data?.partialSuccess?.rejectedSpans ?? 0);
    if (rejected > 0) {
      const why = res.data?.partialSuccess?.errorMessage ?? 'no message';
      throw new LangfuseApiError(
        `${route}: Langfuse rejected ${rejected} of ${spans.length} spans: ${why}`,
        route,
        'http',
        res.status,
        false,
        1,
      );
    }
  }
}
