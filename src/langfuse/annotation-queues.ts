import { LangfuseApiError, type LangfuseHttp } from './http.js';
import type { ApiGeneration } from './types.js';

/**
 * Langfuse annotation queues: queues bound to score configs, items that put a trace (or an observation or a
 * session) in front of people, user assignments, and the people's scores read back (source `ANNOTATION`).
 * A response that does not have the API's shape is a protocol error, never an empty page.
 */

export type QueueObjectType = 'TRACE' | 'OBSERVATION' | 'SESSION';
export type QueueItemStatus = 'PENDING' | 'COMPLETED';

export interface AnnotationQueue {
  id: string;
  name: string;
  description: string | null;
  scoreConfigIds: string[];
}

export interface AnnotationQueueItem {
  id: string;
  queueId: string;
  objectId: string;
  objectType: QueueObjectType;
  status: QueueItemStatus;
  completedAt: string | null;
}

/** One score as people left it in the Langfuse UI (or as an API client prefilled it for them). */
export interface AnnotationScore {
  id: string;
  name: string;
  traceId: string | null;
  observationId: string | null;
  /** NUMERIC and BOOLEAN values, and the category's number for CATEGORICAL. */
  value: number | null;
  /** CATEGORICAL label, TEXT content, `True`/`False`. */
  stringValue: string | null;
  dataType: string;
  source: string;
  comment: string | null;
  queueId: string | null;
  configId: string | null;
  authorUserId: string | null;
  /** ISO 8601. */
  timestamp: string;
}

const QUEUES = '/api/public/annotation-queues';
const PAGE = 100;

function protocolError(route: string, what: string): LangfuseApiError {
  return new LangfuseApiError(`${route}: ${what}`, route, 'invalid_json', 200, true, 1);
}

function record(raw: unknown): Record<string, unknown> | null {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toQueue(raw: unknown, route: string): AnnotationQueue {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.name !== 'string') throw protocolError(route, 'an annotation queue without id or name');
  return {
    id: r.id,
    name: r.name,
    description: str(r.description),
    scoreConfigIds: Array.isArray(r.scoreConfigIds) ? r.scoreConfigIds.filter((x): x is string => typeof x === 'string') : [],
  };
}

function toItem(raw: unknown, route: string): AnnotationQueueItem {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.objectId !== 'string') throw protocolError(route, 'a queue item without id or objectId');
  return {
    id: r.id,
    queueId: str(r.queueId) ?? '',
    objectId: r.objectId,
    objectType: (str(r.objectType) ?? 'TRACE') as QueueObjectType,
    status: r.status === 'COMPLETED' ? 'COMPLETED' : 'PENDING',
    completedAt: str(r.completedAt),
  };
}

/** Pages of `{data, meta}` until a short page or `meta.totalPages`. */
async function allPages(http: LangfuseHttp, path: string, route: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await http.request<{ data?: unknown; meta?: { totalPages?: unknown } }>({ method: 'GET', path, route, query: { ...query, page, limit: PAGE }, signal });
    const rows = res.data?.data;
    if (!Array.isArray(rows)) throw protocolError(route, 'a page without a data array');
    out.push(...rows);
    const totalPages = res.data?.meta?.totalPages;
    if (rows.length < PAGE || (typeof totalPages === 'number' && page >= totalPages)) return out;
  }
}

export async function listAnnotationQueues(http: LangfuseHttp, signal?: AbortSignal): Promise<AnnotationQueue[]> {
  const route = `GET ${QUEUES}`;
  return (await allPages(http, QUEUES, route, {}, signal)).map((q) => toQueue(q, route));
}

export async function getAnnotationQueue(http: LangfuseHttp, queueId: string, signal?: AbortSignal): Promise<AnnotationQueue | null> {
  const route = `GET ${QUEUES}/{queueId}`;
  const res = await http.request<unknown>({ method: 'GET', path: `${QUEUES}/${encodeURIComponent(queueId)}`, route, accept: [404], signal });
  return res.status === 404 ? null : toQueue(res.data, route);
}

export async function createAnnotationQueue(
  http: LangfuseHttp,
  input: { name: string; description?: string; scoreConfigIds: string[] },
  signal?: AbortSignal,
): Promise<AnnotationQueue> {
  const route = `POST ${QUEUES}`;
  const res = await http.request<unknown>({ method: 'POST', path: QUEUES, route, body: input, signal });
  return toQueue(res.data, route);
}

/**
 * The queue of that name (the oldest, when several share it) if it exists and carries every score config given,
 * else a new one. Langfuse has no endpoint to add score configs to a queue, so a queue missing one is replaced.
 */
export async function ensureAnnotationQueue(
  http: LangfuseHttp,
  input: { name: string; description?: string; scoreConfigIds: string[] },
  signal?: AbortSignal,
): Promise<AnnotationQueue> {
  const existing = (await listAnnotationQueues(http, signal)).find(
    (q) => q.name === input.name && input.scoreConfigIds.every((id) => q.scoreConfigIds.includes(id)),
  );
  return existing ?? createAnnotationQueue(http, input, signal);
}

export async function listQueueItems(
  http: LangfuseHttp,
  queueId: string,
  options: { status?: QueueItemStatus; signal?: AbortSignal } = {},
): Promise<AnnotationQueueItem[]> {
  const route = `GET ${QUEUES}/{queueId}/items`;
  const rows = await allPages(http, `${QUEUES}/${encodeURIComponent(queueId)}/items`, route, { status: options.status }, options.signal);
  return rows.map((i) => toItem(i, route));
}

export async function addQueueItem(
  http: LangfuseHttp,
  queueId: string,
  input: { objectId: string; objectType: QueueObjectType; status?: QueueItemStatus },
  signal?: AbortSignal,
): Promise<AnnotationQueueItem> {
  const route = `POST ${QUEUES}/{queueId}/items`;
  const res = await http.request<unknown>({ method: 'POST', path: `${QUEUES}/${encodeURIComponent(queueId)}/items`, route, body: input, signal });
  return toItem(res.data, route);
}

export async function updateQueueItem(
  http: LangfuseHttp,
  queueId: string,
  itemId: string,
  patch: { status: QueueItemStatus },
  signal?: AbortSignal,
): Promise<AnnotationQueueItem> {
  const route = `PATCH ${QUEUES}/{queueId}/items/{itemId}`;
  const path = `${QUEUES}/${encodeURIComponent(queueId)}/items/${encodeURIComponent(itemId)}`;
  const res = await http.request<unknown>({ method: 'PATCH', path, route, body: patch, signal });
  return toItem(res.data, route);
}

export async function removeQueueItem(http: LangfuseHttp, queueId: string, itemId: string, signal?: AbortSignal): Promise<void> {
  const route = `DELETE ${QUEUES}/{queueId}/items/{itemId}`;
  const path = `${QUEUES}/${encodeURIComponent(queueId)}/items/${encodeURIComponent(itemId)}`;
  await http.request<unknown>({ method: 'DELETE', path, route, signal });
}

/** Assigns a Langfuse user (by id) to the queue; the user sees it under "My queues". */
export async function assignQueue(http: LangfuseHttp, queueId: string, userId: string, signal?: AbortSignal): Promise<void> {
  const route = `POST ${QUEUES}/{queueId}/assignments`;
  await http.request<unknown>({ method: 'POST', path: `${QUEUES}/${encodeURIComponent(queueId)}/assignments`, route, body: { userId }, signal });
}

export async function unassignQueue(http: LangfuseHttp, queueId: string, userId: string, signal?: AbortSignal): Promise<void> {
  const route = `DELETE ${QUEUES}/{queueId}/assignments`;
  await http.request<unknown>({ method: 'DELETE', path: `${QUEUES}/${encodeURIComponent(queueId)}/assignments`, route, body: { userId }, signal });
}

// ── annotation scores ────────────────────────────────────────────────────────

export interface AnnotationScoreFilter {
  queueId?: string;
  /** Score names; all when absent. */
  names?: readonly string[];
  /** Default `ANNOTATION`. */
  source?: 'ANNOTATION' | 'API' | 'EVAL';
  signal?: AbortSignal;
}

function toScore(raw: unknown, route: string, v3: boolean): AnnotationScore {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.name !== 'string') throw protocolError(route, 'a score without id or name');
  const dataType = str(r.dataType) ?? 'NUMERIC';
  let value: number | null = typeof r.value === 'number' ? r.value : null;
  let stringValue = str(r.stringValue);
  let traceId = str(r.traceId);
  let observationId = str(r.observationId);
  if (v3) {
    // v3 carries one polymorphic `value` and the subject the score is attached to.
    if (typeof r.value === 'boolean') value = r.value ? 1 : 0;
    if (typeof r.value === 'string') stringValue = r.value;
    const subject = record(r.subject);
    if (subject?.kind === 'trace') traceId = str(subject.id);
    if (subject?.kind === 'observation') {
      observationId = str(subject.id);
      traceId = str(subject.traceId);
    }
  }
  return {
    id: r.id,
    name: r.name,
    traceId,
    observationId,
    value,
    stringValue,
    dataType,
    source: str(r.source) ?? 'API',
    comment: str(r.comment),
    queueId: str(r.queueId),
    configId: str(r.configId),
    authorUserId: str(r.authorUserId),
    timestamp: str(r.timestamp) ?? '',
  };
}

/**
 * Scores of a queue (people's annotations by default), newest first. Langfuse v3 serves them at
 * `GET /api/public/v2/scores`, v4 at `GET /api/public/v3/scores` (cursor paging, field groups).
 */
export async function listAnnotationScores(http: LangfuseHttp, generation: ApiGeneration, filter: AnnotationScoreFilter = {}): Promise<AnnotationScore[]> {
  const source = filter.source ?? 'ANNOTATION';
  const names = filter.names ? new Set(filter.names) : null;
  const keep = (s: AnnotationScore) => !names || names.has(s.name);
  if (generation === 'v3') {
    const route = 'GET /api/public/v2/scores';
    // v2 filters one name at a time: ask for the queue's scores and keep the names locally.
    const query = { source, queueId: filter.queueId, name: names?.size === 1 ? [...names][0] : undefined };
    const rows = await allPages(http, '/api/public/v2/scores', route, query, filter.signal);
    return rows.map((s) => toScore(s, route, false)).filter(keep);
  }
  const route = 'GET /api/public/v3/scores';
  const out: AnnotationScore[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await http.request<{ data?: unknown; meta?: { cursor?: unknown } }>({
      method: 'GET',
      path: '/api/public/v3/scores',
      route,
      query: {
        limit: PAGE,
        cursor,
        fields: 'details,subject,annotation',
        source,
        queueId: filter.queueId,
        name: names ? [...names].join(',') : undefined,
      },
      signal: filter.signal,
    });
    const rows = res.data?.data;
    if (!Array.isArray(rows)) throw protocolError(route, 'a page without a data array');
    out.push(...rows.map((s) => toScore(s, route, true)).filter(keep));
    const next = res.data?.meta?.cursor;
    if (typeof next !== 'string' || next === '' || rows.length === 0) return out;
    cursor = next;
  }
}

/**
 * Writes a score with source `ANNOTATION` in a queue (`POST /api/public/scores`): what a reviewer's click in
 * the UI records, used to prefill a review or to script a reviewer. The config id is required.
 */
export async function createAnnotationScore(
  http: LangfuseHttp,
  input: {
    id?: string;
    traceId: string;
    name: string;
    value: number | string;
    configId: string;
    queueId?: string;
    comment?: string;
    environment?: string;
    metadata?: Record<string, unknown>;
  },
  signal?: AbortSignal,
): Promise<string> {
  const route = 'POST /api/public/scores';
  const res = await http.request<unknown>({ method: 'POST', path: '/api/public/scores', route, body: { ...input, source: 'ANNOTATION' }, signal });
  const id = record(res.data)?.id;
  if (typeof id !== 'string') throw protocolError(route, 'no score id in the answer');
  return id;
}
