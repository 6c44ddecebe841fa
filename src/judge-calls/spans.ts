/**
 * A judge call trace as OTLP/HTTP JSON spans (Langfuse v4, whose ingestion endpoint takes only scores): a root
 * span named `ragwatch-judge` carrying the trace's name, tags and metadata, and one `generation` child per
 * call, with the attributes `@langfuse/tracing` writes.
 */
import { randomBytes } from 'node:crypto';
import { LangfuseOtelSpanAttributes as A } from '@langfuse/tracing';
import { VERSION } from '../version.js';
import {
  callEnd,
  callMetadata,
  JUDGE_TRACE_NAME,
  statusMessage,
  traceMetadata,
  usageDetails,
  type JudgeTraceInput,
  type JudgeTraceOptions,
} from './shape.js';

type Attribute = { key: string; value: { stringValue: string } };

export interface JudgeSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attribute[];
  status: { code: number; message?: string };
}

const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
const json = (value: unknown) => JSON.stringify(value ?? null);
const newSpanId = () => randomBytes(8).toString('hex');

function attributes(map: Record<string, string | undefined>): Attribute[] {
  return Object.entries(map)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([key, value]) => ({ key, value: { stringValue: value } }));
}

function prefixed(prefix: string, record: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [`${prefix}.${k}`, String(v)]));
}

export function judgeTraceSpans(
  input: JudgeTraceInput,
  options: JudgeTraceOptions,
  spanId: () => string = newSpanId,
): JudgeSpan[] {
  const texts = options.includeTexts;
  const start = Math.min(...input.calls.map((c) => c.startedAt));
  const end = Math.max(...input.calls.map(callEnd));
  const rootId = spanId();
  const root: JudgeSpan = {
    traceId: input.executionTraceId,
    spanId: rootId,
    name: JUDGE_TRACE_NAME,
    kind: 1,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(end),
    status: { code: 0 },
    attributes: attributes({
      [A.OBSERVATION_TYPE]: 'span',
      [A.TRACE_NAME]: JUDGE_TRACE_NAME,
      [A.TRACE_TAGS]: json(['ragwatch']),
      [A.ENVIRONMENT]: options.environment,
      ...prefixed(A.TRACE_METADATA, traceMetadata(input, options)),
    }),
  };
  const generations = input.calls.map((call): JudgeSpan => {
    const usage = usageDetails(call);
    const status = statusMessage(call, options);
    return {
      traceId: input.executionTraceId,
      spanId: spanId(),
      parentSpanId: rootId,
      name: call.name,
      kind: 1,
      startTimeUnixNano: nanos(call.startedAt),
      endTimeUnixNano: nanos(callEnd(call)),
      status: call.error ? { code: 2, ...(status ? { message: status } : {}) } : { code: 0 },
      attributes: attributes({
        [A.OBSERVATION_TYPE]: 'generation',
        [A.ENVIRONMENT]: options.environment,
        [A.OBSERVATION_MODEL]: call.model,
        [A.OBSERVATION_MODEL_PARAMETERS]: options.modelParameters ? json(options.modelParameters) : undefined,
        [A.OBSERVATION_USAGE_DETAILS]: usage ? json(usage) : undefined,
        [A.OBSERVATION_INPUT]: texts ? json(call.messages) : undefined,
        [A.OBSERVATION_OUTPUT]: texts && call.value !== undefined ? json(call.value) : undefined,
        [A.OBSERVATION_LEVEL]: call.error ? 'ERROR' : 'DEFAULT',
        [A.OBSERVATION_STATUS_MESSAGE]: status,
        ...prefixed(A.OBSERVATION_METADATA, callMetadata(call)),
      }),
    };
  });
  return [root, ...generations];
}

/** The export request body: one resource (ragwatch) and one scope. */
export function spansExportBody(spans: JudgeSpan[]): Record<string, unknown> {
  const resource = attributes({ 'service.name': 'ragwatch', 'service.version': VERSION });
  return {
    resourceSpans: [
      {
        resource: { attributes: resource },
        scopeSpans: [{ scope: { name: 'ragwatch-judge', version: VERSION }, spans }],
      },
    ],
  };
}
