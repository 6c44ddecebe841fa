import type { LangfuseHttp } from './http.js';

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

export async function postIngestion(http: LangfuseHttp, batch: IngestionEvent[], signal?: AbortSignal): Promise<IngestionResult> {
  const res = await http.request<{ successes?: unknown; errors?: unknown }>({
    method: 'POST',
    path: '/api/public/ingestion',
    route: 'POST /api/public/ingestion',
    body: { batch },
    signal,
  });
  return { successes: statuses(res.data?.successes), errors: statuses(res.data?.errors) };
}

function statuses(value: unknown): IngestionEventStatus[] {
  if (!Array.isArray(value)) return [];
  const out: IngestionEventStatus[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, status, message, error } = item as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    const text = typeof message === 'string' ? message : typeof error === 'string' ? error : error !== undefined && error !== null ? JSON.stringify(error) : undefined;
    out.push({ id, status: typeof status === 'number' ? status : 0, ...(text !== undefined ? { message: text.slice(0, 300) } : {}) });
  }
  return out;
}

/** Splits events into batches of at most `maxEvents` events and `maxBytes` of JSON. */
export function toBatches<T>(events: T[], maxEvents = MAX_BATCH_EVENTS, maxBytes = MAX_BATCH_BYTES): { batches: T[][]; oversized: T[] } {
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
