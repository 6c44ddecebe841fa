import { mapLimited, sleep, type Sleep } from '../internal/index.js';
import {
  createDatasetRunItem,
  EXPERIMENT_SCOPE,
  exportSpans,
  isTraceId,
  itemSpans,
  randomSpanId,
  randomTraceId,
  traceExists,
  type ApiGeneration,
  type DatasetItem,
  type ExperimentContext,
  type LangfuseHttp,
  type OtlpSpan,
} from '../langfuse/index.js';

/**
 * Records one execution as a Langfuse dataset run, once its items are done. Per item: the trace (the RAG
 * service's own when it reported one, else one ragwatch creates with question, answer and contexts) linked to
 * the dataset item under the run. v3 records run items through `POST /dataset-run-items`; v4 (events_only)
 * answers that call with the run's experiment id but records nothing, so the link is the `experiment-item-run`
 * span sent over OTLP — exactly as `@langfuse/client`'s experiment runner does on both.
 *
 * Nothing dangles: a v3 run item is created only after the trace it links was accepted (ragwatch's spans
 * exported without a rejected span, or the service's trace read back); a v4 item's experiment spans travel in
 * the same export as its trace. An incomplete run is recorded with `incomplete: true` in its metadata, which
 * keeps it out of later comparisons.
 */
export interface RunRecorderOptions {
  http: LangfuseHttp;
  generation: ApiGeneration;
  datasetId: string;
  runName: string;
  description: string;
  metadata: Record<string, unknown>;
  /** Spans per OTLP request (two per item). */
  flushEvery?: number;
  newTraceId?: () => string;
  newSpanId?: () => string;
  signal?: AbortSignal;
  /** Waits between reads of service traces that have not arrived yet (Langfuse ingests asynchronously). */
  sleep?: Sleep;
  serviceTraceWaitsMs?: readonly number[];
  /** Run items created at once (v3). */
  concurrency?: number;
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

export interface RecordedRun {
  /** Langfuse's dataset run (v3) or experiment (v4) id; null when no item was recorded. */
  datasetRunId: string | null;
  /** Per dataset item id. */
  items: Map<string, RecordedItem>;
}

interface Planned {
  input: ItemToRecord;
  traceId: string;
  rootSpanId: string;
  /** Our spans create or join the trace; false: a v3 service trace linked as it is. */
  withSpans: boolean;
  ownTrace: boolean;
}

const DEFAULT_WAITS_MS = [2_000, 5_000];

export interface RunRecorder {
  /** Exports the traces and links the items; throws `LangfuseApiError` when Langfuse does not take them. */
  record(items: readonly ItemToRecord[], options: { complete: boolean }): Promise<RecordedRun>;
}

export function createRunRecorder(options: RunRecorderOptions): RunRecorder {
  const traceIdOf = options.newTraceId ?? randomTraceId;
  const spanIdOf = options.newSpanId ?? randomSpanId;
  const itemsPerExport = Math.max(1, Math.floor((options.flushEvery ?? 200) / 2));
  const wait = options.sleep ?? sleep;
  // What the SDK runner does when Langfuse returns no run id: one random experiment id for the whole run.
  const fallbackExperimentId = spanIdOf();

  async function record(items: readonly ItemToRecord[], { complete }: { complete: boolean }): Promise<RecordedRun> {
    const metadata = complete ? options.metadata : { ...options.metadata, incomplete: true };
    const context = (experimentId: string): ExperimentContext => ({
      experimentId,
      runName: options.runName,
      description: options.description,
      metadata,
      datasetId: options.datasetId,
    });
    const recorded = new Map<string, RecordedItem>();
    const done = (p: Planned) =>
      recorded.set(p.input.item.id, { traceId: p.traceId, observationId: p.rootSpanId, serviceTrace: !p.ownTrace });
    if (items.length === 0) return { datasetRunId: null, items: recorded };
    const plan =
      options.generation === 'v3'
        ? await planV3(items)
        : items.map((input) => planned(input, isTraceId(input.serviceTraceId ?? '')));
    const link = (p: Planned) =>
      createDatasetRunItem(
        options.http,
        {
          runName: options.runName,
          runDescription: options.description,
          metadata,
          datasetItemId: p.input.item.id,
          traceId: p.traceId,
          ...(p.withSpans ? { observationId: p.rootSpanId } : {}),
        },
        options.signal,
      );

    if (options.generation === 'v4') {
      // The run item call only names the experiment on v4; the spans are the record.
      const experimentId = (await link(plan[0]!)).datasetRunId || fallbackExperimentId;
      for (const chunk of chunks(plan, itemsPerExport)) {
        await send(chunk.flatMap((p) => spansOf(p, context(experimentId))));
        chunk.forEach(done);
      }
      return { datasetRunId: experimentId, items: recorded };
    }

    let datasetRunId: string | null = null;
    const linkAll = async (group: Planned[]) => {
      await mapLimited(group, options.concurrency ?? 8, async (p) => {
        const linked = await link(p);
        if (linked.datasetRunId) datasetRunId ??= linked.datasetRunId;
        done(p);
      });
    };
    // Service traces already read back first: linking them names the run for the spans that follow.
    await linkAll(plan.filter((p) => !p.withSpans));
    const own = plan.filter((p) => p.withSpans);
    if (datasetRunId === null && own.length > 0) {
      await send(spansOf(own[0]!, context(fallbackExperimentId)));
      await linkAll([own[0]!]);
      own.shift();
    }
    for (const chunk of chunks(own, itemsPerExport)) {
      await send(chunk.flatMap((p) => spansOf(p, context(datasetRunId ?? fallbackExperimentId))));
      await linkAll(chunk);
    }
    return { datasetRunId, items: recorded };
  }

  function planned(input: ItemToRecord, useService: boolean, withSpans = true): Planned {
    const traceId = useService ? input.serviceTraceId! : traceIdOf();
    return { input, traceId, rootSpanId: spanIdOf(), withSpans, ownTrace: !useService };
  }

  /** v3 links the service's trace as it is, once it can be read back; a trace that never arrives is replaced by ours. */
  async function planV3(items: readonly ItemToRecord[]): Promise<Planned[]> {
    let missing = new Set(items.flatMap((i) => (i.serviceTraceId ? [i.serviceTraceId] : [])));
    const waits = [0, ...(options.serviceTraceWaitsMs ?? DEFAULT_WAITS_MS)];
    for (const waitMs of waits) {
      if (missing.size === 0) break;
      if (waitMs > 0) await wait(waitMs, options.signal);
      const found = new Set<string>();
      await mapLimited([...missing], options.concurrency ?? 8, async (id) => {
        if (await traceExists(options.http, id, options.signal)) found.add(id);
      });
      missing = new Set([...missing].filter((id) => !found.has(id)));
    }
    return items.map((input) => {
      const service = input.serviceTraceId !== null && !missing.has(input.serviceTraceId);
      return planned(input, service, !service);
    });
  }

  function spansOf(p: Planned, experiment: ExperimentContext): OtlpSpan[] {
    const i = p.input;
    return itemSpans(
      {
        experiment,
        traceId: p.traceId,
        rootSpanId: p.rootSpanId,
        ownTrace: p.ownTrace,
        itemId: i.item.id,
        itemMetadata: i.item.metadata,
        expectedOutput: i.item.expectedOutput,
        question: i.question,
        answer: i.answer,
        contexts: i.contexts,
        startMs: i.startMs,
        endMs: i.endMs,
        serviceTraceId: i.serviceTraceId,
      },
      spanIdOf(),
    );
  }

  /** One OTLP export; a partial success (rejected spans) is a failure: their items are not linked. */
  const send = (spans: OtlpSpan[]) =>
    exportSpans(options.http, spans, { scope: EXPERIMENT_SCOPE, signal: options.signal });

  return { record };
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
