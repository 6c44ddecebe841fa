/**
 * A judge call trace as OTLP/HTTP JSON spans (Langfuse v4, whose ingestion endpoint takes only scores): a root
 * span named `ragwatch-judge` carrying the trace's name, tags and metadata, and one `generation` child per
 * call, with the attributes `@langfuse/tracing` writes.
 */
import { LangfuseOtelSpanAttributes as A } from '@langfuse/tracing';
import { randomSpanId, span, type OtlpSpan } from '../langfuse/index.js';
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

/** The OTLP scope of the judge call traces. */
export const JUDGE_TRACE_SCOPE = 'ragwatch-judge';

const json = (value: unknown) => JSON.stringify(value ?? null);

function prefixed(prefix: string, record: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [`${prefix}.${k}`, String(v)]));
}

export function judgeTraceSpans(
  input: JudgeTraceInput,
  options: JudgeTraceOptions,
  spanId: () => string = randomSpanId,
): OtlpSpan[] {
  const texts = options.includeTexts;
  const start = Math.min(...input.calls.map((c) => c.startedAt));
  const end = Math.max(...input.calls.map(callEnd));
  const rootId = spanId();
  const root = span({
    traceId: input.executionTraceId,
    spanId: rootId,
    name: JUDGE_TRACE_NAME,
    startMs: start,
    endMs: end,
    attributes: {
      [A.OBSERVATION_TYPE]: 'span',
      [A.TRACE_NAME]: JUDGE_TRACE_NAME,
      [A.TRACE_TAGS]: json(['ragwatch']),
      [A.ENVIRONMENT]: options.environment,
      ...prefixed(A.TRACE_METADATA, traceMetadata(input, options)),
    },
  });
  const generations = input.calls.map((call): OtlpSpan => {
    const usage = usageDetails(call);
    const status = statusMessage(call, options);
    return span({
      traceId: input.executionTraceId,
      spanId: spanId(),
      parentSpanId: rootId,
      name: call.name,
      startMs: call.startedAt,
      endMs: callEnd(call),
      ...(call.error ? { error: { message: status } } : {}),
      attributes: {
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
      },
    });
  });
  return [root, ...generations];
}
