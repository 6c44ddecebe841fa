import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';

/**
 * Langfuse annotation queues: queues bound to score configs, items that put a trace (or an observation or a
 * session) in front of people, and user assignments. People's scores come back through `annotation-scores.ts`.
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

const QUEUES = '/api/public/annotation-queues';
export const PAGE = 100;

export function protocolError(route: string, what: string): LangfuseApiError {
  return new LangfuseApiError(`${route}: ${what}`, route, 'invalid_json', 200, true, 1);
}

export function record(raw: unknown): Record<string, unknown> | null {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toQueue(raw: unknown, route: string): AnnotationQueue {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.name !== 'string')
    throw protocolError(route, 'an annotation queue without id or name');
  return {
    id: r.id,
    name: r.name,
    description: str(r.description),
    scoreConfigIds: Array.isArray(r.scoreConfigIds)
      ? r.scoreConfigIds.filter((x): x is string => typeof x === 'string')
      : [],
  };
}

function toItem(raw: unknown, route: string): AnnotationQueueItem {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.objectId !== 'string')
    throw protocolError(route, 'a queue item without id or objectId');
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
export async function allPages(
  http: LangfuseHttp,
  path: string,
  route: string,
  query: Record<string, string | undefined>,
  signal?: AbortSignal,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await http.request<{ data?: unknown; meta?: { totalPages?: unknown } }>({
      method: 'GET',
      path,
      route,
      query: { ...query, page, limit: PAGE },
      signal,
    });
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

export async function getAnnotationQueue(
  http: LangfuseHttp,
  queueId: string,
  signal?: AbortSignal,
): Promise<AnnotationQueue | null> {
  const route = `GET ${QUEUES}/{queueId}`;
  const res = await http.request<unknown>({
    method: 'GET',
    path: `${QUEUES}/${encodeURIComponent(queueId)}`,
    route,
    accept: [404],
    signal,
  });
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
  const rows = await allPages(
    http,
    `${QUEUES}/${encodeURIComponent(queueId)}/items`,
    route,
    { status: options.status },
    options.signal,
  );
  return rows.map((i) => toItem(i, route));
}

export async function addQueueItem(
  http: LangfuseHttp,
  queueId: string,
  input: { objectId: string; objectType: QueueObjectType; status?: QueueItemStatus },
  signal?: AbortSignal,
): Promise<AnnotationQueueItem> {
  const route = `POST ${QUEUES}/{queueId}/items`;
  const res = await http.request<unknown>({
    method: 'POST',
    path: `${QUEUES}/${encodeURIComponent(queueId)}/items`,
    route,
    body: input,
    signal,
  });
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

export async function removeQueueItem(
  http: LangfuseHttp,
  queueId: string,
  itemId: string,
  signal?: AbortSignal,
): Promise<void> {
  const route = `DELETE ${QUEUES}/{queueId}/items/{itemId}`;
  const path = `${QUEUES}/${encodeURIComponent(queueId)}/items/${encodeURIComponent(itemId)}`;
  await http.request<unknown>({ method: 'DELETE', path, route, signal });
}

/** Assigns a Langfuse user (by id) to the queue; the user sees it under "My queues". */
export async function assignQueue(
  http: LangfuseHttp,
  queueId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<void> {
  const route = `POST ${QUEUES}/{queueId}/assignments`;
  await http.request<unknown>({
    method: 'POST',
    path: `${QUEUES}/${encodeURIComponent(queueId)}/assignments`,
    route,
    body: { userId },
    signal,
  });
}

export async function unassignQueue(
  http: LangfuseHttp,
  queueId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<void> {
  const route = `DELETE ${QUEUES}/{queueId}/assignments`;
  await http.request<unknown>({
    method: 'DELETE',
    path: `${QUEUES}/${encodeURIComponent(queueId)}/assignments`,
    route,
    body: { userId },
    signal,
  });
}
