/**
 * OTLP/HTTP JSON spans for one experiment item, with the attributes `@langfuse/client`'s experiment runner puts
 * on its `experiment-item-run` root span and propagates to the children (`langfuse.experiment.*`, environment
 * `sdk-experiment`). On Langfuse v4 these spans are what makes the dataset run: the item root observation is the
 * run item, its trace the item's trace. ragwatch builds the JSON itself so every export is a checked HTTP request
 * through the Langfuse client (status, retries), not a background processor that drops failures.
 */
import { LangfuseOtelSpanAttributes as A } from '@langfuse/tracing';
import { randomSpanId, span, type OtlpSpan } from './otlp.js';

export const EXPERIMENT_ENVIRONMENT = 'sdk-experiment';
export const ITEM_SPAN_NAME = 'experiment-item-run';
/** The OTLP scope of the item spans. */
export const EXPERIMENT_SCOPE = 'ragwatch-experiment';

export interface ExperimentContext {
  experimentId: string;
  /** The run name (what the SDK sends as the experiment name on spans). */
  runName: string;
  description: string;
  metadata: Record<string, unknown>;
  datasetId: string;
}

export interface ItemSpansInput {
  experiment: ExperimentContext;
  traceId: string;
  rootSpanId: string;
  /** Whether ragwatch owns the trace (then the root also carries the trace name and IO). */
  ownTrace: boolean;
  itemId: string;
  itemMetadata: unknown;
  expectedOutput: unknown;
  question: string;
  answer: string;
  contexts: string[];
  startMs: number;
  endMs: number;
  /** The RAG service's own trace, when it reported one that could not carry these spans. */
  serviceTraceId?: string | null;
}

function serialize(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** The root span (the run item) and a retriever child holding the contexts. */
export function itemSpans(input: ItemSpansInput, childSpanId: string = randomSpanId()): OtlpSpan[] {
  const e = input.experiment;
  const experiment: Record<string, string | undefined> = {
    [A.EXPERIMENT_ID]: e.experimentId,
    [A.EXPERIMENT_NAME]: e.runName,
    [A.EXPERIMENT_METADATA]: serialize(e.metadata),
    [A.EXPERIMENT_DATASET_ID]: e.datasetId,
    [A.EXPERIMENT_ITEM_ID]: input.itemId,
    [A.EXPERIMENT_ITEM_METADATA]:
      input.itemMetadata === null || input.itemMetadata === undefined ? undefined : serialize(input.itemMetadata),
    [A.EXPERIMENT_ITEM_ROOT_OBSERVATION_ID]: input.rootSpanId,
    [A.ENVIRONMENT]: EXPERIMENT_ENVIRONMENT,
  };
  const output = { answer: input.answer, contexts: input.contexts };
  const root = itemSpan(
    input,
    { spanId: input.rootSpanId, name: ITEM_SPAN_NAME },
    {
      ...experiment,
      [A.OBSERVATION_TYPE]: 'span',
      [A.EXPERIMENT_DESCRIPTION]: e.description || undefined,
      [A.EXPERIMENT_ITEM_EXPECTED_OUTPUT]:
        input.expectedOutput === null || input.expectedOutput === undefined
          ? undefined
          : serialize(input.expectedOutput),
      [A.OBSERVATION_INPUT]: serialize({ question: input.question }),
      [A.OBSERVATION_OUTPUT]: serialize(output),
      [`${A.OBSERVATION_METADATA}.source`]: 'ragwatch',
      [`${A.OBSERVATION_METADATA}.dataset_item_id`]: input.itemId,
      [`${A.OBSERVATION_METADATA}.experiment_run_name`]: e.runName,
      [`${A.OBSERVATION_METADATA}.service_trace_id`]: input.serviceTraceId ?? undefined,
      ...(input.ownTrace
        ? {
            [A.TRACE_NAME]: 'ragwatch-experiment',
            [A.TRACE_INPUT]: serialize({ question: input.question }),
            [A.TRACE_OUTPUT]: serialize(output),
          }
        : {}),
    },
  );
  const retriever = itemSpan(
    input,
    { spanId: childSpanId, parentSpanId: input.rootSpanId, name: 'rag-contexts' },
    {
      ...experiment,
      [A.OBSERVATION_TYPE]: 'retriever',
      [A.OBSERVATION_INPUT]: serialize({ query: input.question }),
      [A.OBSERVATION_OUTPUT]: serialize(input.contexts),
    },
  );
  return [root, retriever];
}

/** A span of the item's trace over the item's time. */
function itemSpan(
  input: ItemSpansInput,
  id: { spanId: string; parentSpanId?: string; name: string },
  attributes: Record<string, string | undefined>,
): OtlpSpan {
  return span({ traceId: input.traceId, ...id, startMs: input.startMs, endMs: input.endMs, attributes });
}
