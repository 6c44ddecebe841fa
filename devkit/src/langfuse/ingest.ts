import { IngestionEvent } from './ingestion-schema.js';
import { inflateScore, type ScoreBodyInput } from './score-validation.js';
import type { LangfuseStore } from './store.js';
import type { ObservationType, Personality } from './types.js';
import type { ObservationInput } from './merge.js';

export interface IngestionResult {
  successes: { id: string; status: number }[];
  errors: { id: string; status: number; message?: string; error?: string }[];
}

const EVENTS_ONLY_ALLOWED = new Set(['score-create', 'sdk-log']);
const V4_REMEDIATION =
  'Upgrade the client or integration to a v4-compatible SDK or OTLP ingestion path. As a temporary migration bridge, set LANGFUSE_MIGRATION_V4_WRITE_MODE=dual on both the web and worker services and redeploy. Docs: https://langfuse.com/self-hosting/upgrade/upgrade-guides/upgrade-v3-to-v4';

const OBSERVATION_EVENT_TYPES: Record<string, ObservationType> = {
  'event-create': 'EVENT',
  'span-create': 'SPAN',
  'span-update': 'SPAN',
  'generation-create': 'GENERATION',
  'generation-update': 'GENERATION',
  'agent-create': 'AGENT',
  'tool-create': 'TOOL',
  'chain-create': 'CHAIN',
  'retriever-create': 'RETRIEVER',
  'evaluator-create': 'EVALUATOR',
  'embedding-create': 'EMBEDDING',
  'guardrail-create': 'GUARDRAIL',
};

function eventId(event: unknown): string {
  const id = typeof event === 'object' && event !== null ? (event as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : 'unknown';
}

/**
 * `POST /api/public/ingestion` semantics: per-event validation (400 in `errors`), v4 events_only rejection,
 * acknowledged-but-dropped events without `body.id`, and the writes themselves. Score bodies that pass the schema
 * but fail config validation (a NUMERIC config's range, a CATEGORICAL one's categories, the data type) are
 * acknowledged and dropped, as Langfuse's worker does (see `store.droppedScores`); so are the scores `dropScore`
 * picks (the `dropScoreRate` / `dropScoresNext` fault knobs).
 */
export function ingestBatch(
  store: LangfuseStore,
  batch: unknown[],
  personality: Personality,
  dropScore: () => boolean = () => false,
): IngestionResult {
  const result: IngestionResult = { successes: [], errors: [] };
  const accepted: { event: IngestionEvent; rawBody: Record<string, unknown> | undefined }[] = [];
  const rejectedV4: IngestionResult['errors'] = [];
  for (const raw of batch) {
    const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
    if (personality === 'v4' && !(typeof type === 'string' && EVENTS_ONLY_ALLOWED.has(type))) {
      rejectedV4.push({
        id: eventId(raw),
        status: 400,
        message: 'Event type not accepted',
        error: `Event type "${typeof type === 'string' ? type : 'unknown'}" is not accepted by /api/public/ingestion when LANGFUSE_MIGRATION_V4_WRITE_MODE is events_only. This endpoint only accepts score and log events. ${V4_REMEDIATION}`,
      });
      continue;
    }
    const parsed = IngestionEvent.safeParse(raw);
    if (!parsed.success) {
      result.errors.push({
        id: eventId(raw),
        status: 400,
        message: 'Invalid request data',
        error: parsed.error.message,
      });
      continue;
    }
    const rawBody = (raw as { body?: unknown }).body;
    accepted.push({
      event: parsed.data,
      rawBody: typeof rawBody === 'object' && rawBody !== null ? (rawBody as Record<string, unknown>) : undefined,
    });
  }
  // Langfuse processes trace-create before the observations and scores of a batch.
  const ordered = [...accepted].sort((a, b) => rank(a.event.type) - rank(b.event.type));
  for (const { event, rawBody } of ordered) {
    result.successes.push({ id: event.id, status: 201 });
    applyEvent(store, event, rawBody, dropScore);
  }
  result.errors.push(...rejectedV4);
  return result;
}

function rank(type: string): number {
  return type === 'trace-create' ? 0 : 1;
}

function applyEvent(
  store: LangfuseStore,
  event: IngestionEvent,
  rawBody: Record<string, unknown> | undefined,
  dropScore: () => boolean,
): void {
  if (event.type === 'sdk-log') return;
  const body = event.body as { id?: string | null };
  if (!body.id) return; // acknowledged and dropped, as the real server does
  const hasEnvironment = rawBody !== undefined && typeof rawBody.environment === 'string';
  if (event.type === 'trace-create') {
    const b = event.body;
    store.upsertTrace({
      id: body.id,
      timestamp: b.timestamp ?? (store.getTrace(body.id) ? undefined : event.timestamp),
      name: b.name,
      userId: b.userId,
      sessionId: b.sessionId,
      release: b.release,
      version: b.version,
      input: b.input,
      output: b.output,
      metadata: b.metadata,
      tags: b.tags,
      public: b.public,
      environment: hasEnvironment ? b.environment : undefined,
    });
    return;
  }
  if (event.type === 'score-create') {
    const inflated = inflateScore(event.body as ScoreBodyInput, store);
    if ('error' in inflated) {
      store.recordDroppedScore({ id: body.id, name: event.body.name, reason: inflated.error });
      return;
    }
    if (dropScore()) {
      store.recordDroppedScore({ id: body.id, name: event.body.name, reason: 'dropped by a fault knob after the 207' });
      return;
    }
    store.upsertScore({ ...inflated.score, id: body.id, timestamp: event.timestamp });
    return;
  }
  const type: ObservationType =
    event.type === 'observation-create' || event.type === 'observation-update'
      ? event.body.type
      : (OBSERVATION_EVENT_TYPES[event.type] ?? 'SPAN');
  const b = event.body as Record<string, unknown> & { id: string };
  const exists = store.getObservation(b.id) !== undefined;
  const input: ObservationInput = {
    id: b.id,
    traceId: b.traceId as string | null | undefined,
    type: event.type.endsWith('-update') && exists ? undefined : type,
    name: b.name as string | null | undefined,
    startTime: (b.startTime as string | null | undefined) ?? (exists ? undefined : event.timestamp),
    endTime: b.endTime as string | null | undefined,
    completionStartTime: b.completionStartTime as string | null | undefined,
    model: b.model as string | null | undefined,
    modelParameters: b.modelParameters as Record<string, unknown> | null | undefined,
    input: b.input,
    output: b.output,
    metadata: b.metadata,
    level: b.level as ObservationInput['level'],
    statusMessage: b.statusMessage as string | null | undefined,
    parentObservationId: b.parentObservationId as string | null | undefined,
    version: b.version as string | null | undefined,
    environment: hasEnvironment ? (b.environment as string) : undefined,
    usageDetails: usageDetails(b.usageDetails, b.usage),
    costDetails: costDetails(b.costDetails, b.usage),
    promptName: b.promptName as string | null | undefined,
    promptVersion: b.promptVersion as number | null | undefined,
  };
  store.upsertObservation(input);
}

/** Normalizes Langfuse/OpenAI usage shapes to `{ input, output, total, ...details }`. */
export function usageDetails(details: unknown, usage: unknown): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  const put = (key: string, value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  };
  if (details && typeof details === 'object') {
    const d = details as Record<string, unknown>;
    if ('prompt_tokens' in d || 'completion_tokens' in d || 'input_tokens' in d || 'output_tokens' in d) {
      put('input', d.prompt_tokens ?? d.input_tokens);
      put('output', d.completion_tokens ?? d.output_tokens);
      put('total', d.total_tokens);
      for (const [prefix, nested] of [
        ['input', d.prompt_tokens_details ?? d.input_tokens_details],
        ['output', d.completion_tokens_details ?? d.output_tokens_details],
      ] as const) {
        if (nested && typeof nested === 'object') {
          for (const [k, v] of Object.entries(nested as Record<string, unknown>)) put(`${prefix}_${k}`, v);
        }
      }
    } else {
      for (const [k, v] of Object.entries(d)) put(k, v);
    }
  } else if (usage && typeof usage === 'object') {
    const u = usage as Record<string, unknown>;
    put('input', u.input ?? u.promptTokens);
    put('output', u.output ?? u.completionTokens);
    put('total', u.total ?? u.totalTokens);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function costDetails(details: unknown, usage: unknown): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  if (details && typeof details === 'object') {
    for (const [k, v] of Object.entries(details as Record<string, unknown>)) {
      if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    }
  } else if (usage && typeof usage === 'object') {
    const u = usage as Record<string, unknown>;
    if (typeof u.inputCost === 'number') out.input = u.inputCost;
    if (typeof u.outputCost === 'number') out.output = u.outputCost;
    if (typeof u.totalCost === 'number') out.total = u.totalCost;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
