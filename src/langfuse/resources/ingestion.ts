import type { LangfuseHttp } from '../core/http.js';
import { ingestionStatusesFrom } from '../core/shapes.js';

/** `POST /api/public/ingestion`: a batch of event envelopes, answered 207 with a status per event. */

export interface IngestionEvent {
  /** Envelope id, unique per request (the server deduplicates deliveries on it). */
  id: string;
  type: string;
  /** ISO 8601. For scores it becomes the score's timestamp. */
  timestamp: string;
  body: Record<string, unknown>;
}

export interface IngestionEventStatus {
  id: string;
  status: number;
  message?: string;
}

export interface IngestionResult {
  successes: IngestionEventStatus[];
  errors: IngestionEventStatus[];
}

/** Documented limit is 3.5 MB; stay clearly under it. */
export const MAX_BATCH_BYTES = 3_000_000;
export const MAX_BATCH_EVENTS = 100;

export async function postIngestion(
  http: LangfuseHttp,
  batch: IngestionEvent[],
  signal?: AbortSignal,
): Promise<IngestionResult> {
  const route = 'POST /api/public/ingestion';
  const res = await http.request({ method: 'POST', path: '/api/public/ingestion', route, body: { batch }, signal });
  const body = ingestionStatusesFrom(res.data, route, res.status);
  return { successes: body.successes.map(statusOf), errors: body.errors.map(statusOf) };
}

function statusOf(item: {
  id: string;
  status: number;
  message?: string | null;
  error?: unknown;
}): IngestionEventStatus {
  const { id, status, message, error } = item;
  const text =
    typeof message === 'string'
      ? message
      : typeof error === 'string'
        ? error
        : error !== undefined && error !== null
          ? JSON.stringify(error)
          : undefined;
  return { id, status, ...(text !== undefined ? { message: text.slice(0, 300) } : {}) };
}

/** Splits events into batches of at most `maxEvents` events and `maxBytes` of JSON. */
export function toBatches<T>(
  events: T[],
  maxEvents = MAX_BATCH_EVENTS,
  maxBytes = MAX_BATCH_BYTES,
): { batches: T[][]; oversized: T[] } {
  const batches: T[][] = [];
  const oversized: T[] = [];
  let current: T[] = [];
  let bytes = 0;
  const envelope = Buffer.byteLength('{"batch":[]}');
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (size + envelope > maxBytes) {
      oversized.push(event);
      continue;
    }
    if (current.length >= maxEvents || bytes + size + envelope > maxBytes) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return { batches, oversized };
}
