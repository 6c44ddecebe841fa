import type { LangfuseClient } from '@langfuse/client';
import type { DemoTrace } from '../model.js';
import { uuidFrom } from '../random.js';

/** An ingestion event as the older (v2/v3) Langfuse SDKs batch them. */
export interface LegacyIngestionEvent {
  id: string;
  type: 'trace-create' | 'span-create' | 'generation-create' | 'generation-update';
  timestamp: string;
  body: Record<string, unknown>;
}

/**
 * The events an older SDK sends for one trace: `trace-create`, a `span-create` per retrieval,
 * `generation-create` when the call starts and `generation-update` when it ends (`generation.end()`).
 * Observation ids are UUIDs derived from the trace id, so re-sending replaces rather than duplicates.
 */
export function legacyIngestionEvents(trace: DemoTrace): LegacyIngestionEvent[] {
  let n = 0;
  const event = (
    type: LegacyIngestionEvent['type'],
    at: Date,
    body: Record<string, unknown>,
  ): LegacyIngestionEvent => ({
    id: uuidFrom(trace.id, 'event', n++),
    type,
    timestamp: at.toISOString(),
    body,
  });
  const events: LegacyIngestionEvent[] = [
    event('trace-create', trace.startTime, {
      id: trace.id,
      timestamp: trace.startTime.toISOString(),
      name: trace.name,
      userId: trace.userId,
      sessionId: trace.sessionId,
      tags: trace.tags,
      release: trace.release,
      ...(trace.environment ? { environment: trace.environment } : {}),
      input: { query: trace.question },
      output: trace.answer,
      metadata: { channel: 'email', language: trace.language },
    }),
  ];
  trace.steps.forEach((step, i) => {
    const id = uuidFrom(trace.id, 'observation', i);
    const common = {
      id,
      traceId: trace.id,
      startTime: step.startTime.toISOString(),
      ...(trace.environment ? { environment: trace.environment } : {}),
    };
    if (step.kind === 'retrieval') {
      events.push(
        event('span-create', step.endTime, {
          ...common,
          name: step.index === 'knowledge-base' ? 'retrieval' : 'crm-lookup',
          endTime: step.endTime.toISOString(),
          input: { query: step.query, top_k: step.topK },
          output: {
            documents: step.documents.map((d) => ({
              id: d.metadata.chunkId,
              text: d.pageContent,
              metadata: { source: d.metadata.source, title: d.metadata.title },
              similarity: d.score,
            })),
          },
        }),
      );
      return;
    }
    events.push(
      event('generation-create', step.startTime, {
        ...common,
        name: step.purpose === 'answer' ? 'llm-answer' : step.purpose,
        model: step.model,
        modelParameters: { temperature: step.temperature, ...(step.maxTokens ? { max_tokens: step.maxTokens } : {}) },
        input: step.messages,
      }),
      event('generation-update', step.endTime, {
        id,
        traceId: trace.id,
        endTime: step.endTime.toISOString(),
        model: step.responseModel,
        output: step.output,
        usage: { input: step.usage.input, output: step.usage.output, total: step.usage.total, unit: 'TOKENS' },
      }),
    );
  });
  return events;
}

export interface IngestionOutcome {
  events: number;
  /** Per-event rejections from the 207 response, with the trace the event belonged to. */
  errors: Array<{ id: string; traceId: string; status: number; message?: string }>;
}

/** Sends the traces' events with `api.ingestion.batch`, a few traces per request (well under the size limit). */
export async function emitIngestionTraces(
  client: LangfuseClient,
  traces: DemoTrace[],
  tracesPerBatch = 10,
): Promise<IngestionOutcome> {
  const outcome: IngestionOutcome = { events: 0, errors: [] };
  for (let i = 0; i < traces.length; i += tracesPerBatch) {
    const owner = new Map<string, string>();
    const batch = traces.slice(i, i + tracesPerBatch).flatMap((trace) => {
      const events = legacyIngestionEvents(trace);
      for (const e of events) owner.set(e.id, trace.id);
      return events;
    });
    const response = await client.api.ingestion.batch({
      batch: batch as Parameters<LangfuseClient['api']['ingestion']['batch']>[0]['batch'],
    });
    outcome.events += batch.length;
    for (const error of response.errors)
      outcome.errors.push({
        id: error.id,
        traceId: owner.get(error.id) ?? '',
        status: error.status,
        ...(error.message ? { message: error.message } : {}),
      });
  }
  return outcome;
}
