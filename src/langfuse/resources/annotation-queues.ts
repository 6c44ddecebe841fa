import { InputError } from '../../errors.js';
import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';
import { listScoreConfigs } from './score-configs.js';

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
 * A queue of the configured name already exists in Langfuse (a person made it, or the scale changed) without
 * every score config ragwatch writes reviews with. Langfuse has no endpoint to add configs to a queue and refuses
 * a second queue of the same name, so this is configuration, not an outage (exit 2).
 */
export class AnnotationQueueConflictError extends InputError {
  constructor(
    readonly queueName: string,
    readonly missing: readonly string[],
    settingKey: string | undefined,
  ) {
    const configs = `score config${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`;
    super([
      `${settingKey ? `${settingKey}: ` : ''}annotation queue "${queueName}" already exists in Langfuse without the ` +
        `${configs} ragwatch's reviews are scored with, and Langfuse cannot add score configs to a queue; ` +
        `${settingKey ? `set ${settingKey} to another name` : 'use another queue name'}, or delete that queue in Langfuse and run again`,
    ]);
  }
}

export interface QueueWanted {
  name: string;
  description?: string;
  /** The score configs the queue must carry, by name. */
  scoreConfigs: ReadonlyMap<string, string>;
  /** The setting that names the queue, quoted in a conflict (`calibrate.queue`). */
  settingKey?: string;
}

/** The queues of that name; the one carrying every wanted config, if any; else the configs the closest one lacks. */
function matchQueue(
  queues: readonly AnnotationQueue[],
  name: string,
  configNames: readonly string[],
  carries: (queue: AnnotationQueue, configName: string) => boolean,
): { fit: AnnotationQueue | null; missing: string[] | null } {
  const named = queues.filter((q) => q.name === name);
  if (named.length === 0) return { fit: null, missing: null };
  const lacking = (q: AnnotationQueue) => configNames.filter((n) => !carries(q, n));
  const fit = named.find((q) => lacking(q).length === 0);
  if (fit) return { fit, missing: null };
  const closest = named.reduce((a, b) => (lacking(b).length < lacking(a).length ? b : a));
  return { fit: null, missing: lacking(closest) };
}

/**
 * The queue of that name if it carries every score config wanted (the oldest, when several do), else a new one
 * when no queue has that name; a queue of that name without them is an {@link AnnotationQueueConflictError}.
 * A queue another replica creates meanwhile (Langfuse answers 400) is taken when it fits.
 */
export async function ensureAnnotationQueue(
  http: LangfuseHttp,
  input: QueueWanted,
  signal?: AbortSignal,
): Promise<AnnotationQueue> {
  const settle = async () => {
    const queues = await listAnnotationQueues(http, signal);
    const { fit, missing } = matchQueue(queues, input.name, [...input.scoreConfigs.keys()], (q, n) =>
      q.scoreConfigIds.includes(input.scoreConfigs.get(n)!),
    );
    if (missing) throw new AnnotationQueueConflictError(input.name, missing, input.settingKey);
    return fit;
  };
  const found = await settle();
  if (found) return found;
  const body = {
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    scoreConfigIds: [...input.scoreConfigs.values()],
  };
  try {
    return await createAnnotationQueue(http, body, signal);
  } catch (err) {
    if (!(err instanceof LangfuseApiError && err.status === 400)) throw err;
    const raced = await settle();
    if (raced) return raced;
    throw err;
  }
}

/**
 * What `ensureAnnotationQueue` would refuse, read only (for `--dry-run`): a conflict when a queue of that name
 * lacks one of the configs (a config not created yet is lacking), null when it fits or does not exist.
 */
export async function annotationQueueConflict(
  http: LangfuseHttp,
  input: { name: string; scoreConfigNames: readonly string[]; settingKey?: string },
  signal?: AbortSignal,
): Promise<AnnotationQueueConflictError | null> {
  const queues = await listAnnotationQueues(http, signal);
  if (!queues.some((q) => q.name === input.name)) return null;
  const configs = await listScoreConfigs(http, signal);
  // A config not created yet has no id, so no queue carries it; several may share a name: any of them will do.
  const idsOf = (name: string) => configs.filter((c) => c.name === name).map((c) => c.id);
  const { missing } = matchQueue(queues, input.name, input.scoreConfigNames, (q, n) =>
    idsOf(n).some((id) => q.scoreConfigIds.includes(id)),
  );
  return missing ? new AnnotationQueueConflictError(input.name, missing, input.settingKey) : null;
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
