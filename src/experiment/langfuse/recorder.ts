import { createDatasetRunItem, type DatasetItem } from '../../langfuse/datasets.js';
import { LangfuseApiError, type LangfuseHttp } from '../../langfuse/http.js';
import type { ApiGeneration } from '../../langfuse/types.js';
import { exportBody, isOtelTraceId, itemSpans, newSpanId, newTraceId, type ExperimentContext, type OtlpSpan } from './otlp.js';

/**
 * Records one execution as a Langfuse dataset run. Per item: the trace (the RAG service's own when it reported
 * one, else one ragwatch creates with question, answer and contexts) linked to the dataset item under the run.
 * v3 records run items through `POST /dataset-run-items`; v4 (events_only) answers that call with the run's
 * experiment id but records nothing, so the link is the `experiment-item-run` span sent over OTLP — exactly
 * as `@langfuse/client`'s experiment runner does on both.
 */
export interface RunRecorderOptions {
  http: LangfuseHttp;
  generation: ApiGeneration;
  datasetId: string;
  runName: string;
  description: string;
  metadata: Record<string, unknown>;
  /** Spans per OTLP request. */
  flushEvery?: number;
  newTraceId?: () => string;
  newSpanId?: () => string;
  signal?: AbortSignal;
}

export interface ItemToRecord {
  item: Pick<DatasetItem, 'id' | 'metadata' | 'expectedOutput'>;
  question: string;
  answer: string;
  contexts: string[];
  /** The trace the RAG service created, when its response said. */
  serviceTraceId: string | null;
  startMs: number;
  endMs: number;
}

export interface RecordedItem {
  /** The trace the run item links to; the item's scores go there. */
  traceId: string;
  observationId: string;
  /** Whether the trace is the RAG service's own. */
  serviceTrace: boolean;
}

export interface RunRecorder {
  /** The dataset run's id, known once the first item was linked. */
  readonly datasetRunId: string | null;
  recordItem(input: ItemToRecord): Promise<RecordedItem>;
  /** Sends the spans still buffered; throws `LangfuseApiError` when Langfuse does not take them. */
  flush(): Promise<void>;
}

export function createRunRecorder(options: RunRecorderOptions): RunRecorder {
  const traceIdOf = options.newTraceId ?? newTraceId;
  const spanIdOf = options.newSpanId ?? newSpanId;
  const flushEvery = options.flushEvery ?? 200;
  let datasetRunId: string | null = null;
  // What the SDK runner does when Langfuse returns no run id: one random experiment id for the whole run.
  const fallbackExperimentId = spanIdOf();
  let buffer: OtlpSpan[] = [];
  let sending: Promise<void> = Promise.resolve();

  const context = (experimentId: string): ExperimentContext => ({
    experimentId,
    runName: options.runName,
    description: options.description,
    metadata: options.metadata,
    datasetId: options.datasetId,
  });

  async function send(spans: OtlpSpan[]): Promise<void> {
    if (spans.length === 0) return;
    const res = await options.http.request<{ partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } }>({
      method: 'POST',
      path: '/api/public/otel/v1/traces',
      route: 'POST /api/public/otel/v1/traces',
      body: exportBody(spans),
      signal: options.signal,
    });
    const rejected = Number(res.data?.partialSuccess?.rejectedSpans ?? 0);
    if (rejected > 0) {
      throw new LangfuseApiError(
        `POST /api/public/otel/v1/traces: Langfuse rejected ${rejected} of ${spans.length} spans: ${res.data?.partialSuccess?.errorMessage ?? 'no message'}`,
        'POST /api/public/otel/v1/traces',
        'http',
        res.status,
        false,
        1,
      );
    }
  }

  function flush(): Promise<void> {
    const spans = buffer;
    buffer = [];
    // Exports go one after another so a failure surfaces on the next flush or the final one.
    sending = sending.then(() => send(spans));
    return sending;
  }

  return {
    get datasetRunId() {
      return datasetRunId;
    },
    async recordItem(input) {
      const service = input.serviceTraceId;
      // v3 links any trace id; on v4 the spans must live in the trace, which OTLP can only address by a W3C id.
      const useService = service !== null && (options.generation === 'v3' || isOtelTraceId(service));
      const traceId = useService ? service : traceIdOf();
      const rootSpanId = spanIdOf();
      const linked = await createDatasetRunItem(
        options.http,
        {
          runName: options.runName,
          runDescription: options.description,
          metadata: options.metadata,
          datasetItemId: input.item.id,
          traceId,
          ...(useService && options.generation === 'v3' ? {} : { observationId: rootSpanId }),
        },
        options.signal,
      );
      if (linked.datasetRunId) datasetRunId ??= linked.datasetRunId;
      const experimentId = linked.datasetRunId || datasetRunId || fallbackExperimentId;
      // On v3 with the service's trace there is nothing to add: the run item already points at it.
      if (!(useService && options.generation === 'v3')) {
        buffer.push(
          ...itemSpans(
            {
              experiment: context(experimentId),
              traceId,
              rootSpanId,
              ownTrace: !useService,
              itemId: input.item.id,
              itemMetadata: input.item.metadata,
              expectedOutput: input.item.expectedOutput,
              question: input.question,
              answer: input.answer,
              contexts: input.contexts,
              startMs: input.startMs,
              endMs: input.endMs,
              serviceTraceId: service,
            },
            spanIdOf(),
          ),
        );
        if (buffer.length >= flushEvery) await flush();
      }
      return { traceId, observationId: rootSpanId, serviceTrace: useService };
    },
    async flush() {
      await flush();
    },
  };
}
