import { z } from 'zod';
import type { AnnotationQueueItemRecord, AnnotationQueueRecord } from '../annotation-queue-table.js';
import { pageParams, paginate } from '../query.js';
import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { iso } from '../values.js';
import { ok } from './common.js';

/**
 * Langfuse's annotation-queue API (`/api/public/annotation-queues…`): queues bound to score configs, items
 * pointing at traces, observations or sessions, and user assignments. Queues live in PostgreSQL in Langfuse, so
 * v3 and v4 serve them alike.
 */

const ObjectType = z.enum(['TRACE', 'OBSERVATION', 'SESSION']);
const Status = z.enum(['PENDING', 'COMPLETED']);

const CreateQueue = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  scoreConfigIds: z.array(z.string()).min(1, 'At least one score config is required'),
});
const CreateItem = z.object({ objectId: z.string().min(1), objectType: ObjectType, status: Status.nullish() });
const UpdateItem = z.object({ status: Status.nullish() });
const Assignment = z.object({ userId: z.string().min(1) });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'Invalid request data', parsed.error.issues);
  return parsed.data;
}

function queueView(q: AnnotationQueueRecord) {
  return {
    id: q.id,
    name: q.name,
    description: q.description,
    scoreConfigIds: q.scoreConfigIds,
    createdAt: iso(q.createdAt),
    updatedAt: iso(q.updatedAt),
  };
}

function itemView(i: AnnotationQueueItemRecord) {
  return {
    id: i.id,
    queueId: i.queueId,
    objectId: i.objectId,
    objectType: i.objectType,
    status: i.status,
    completedAt: i.completedAt === null ? null : iso(i.completedAt),
    createdAt: iso(i.createdAt),
    updatedAt: iso(i.updatedAt),
  };
}

function queueOf(ctx: RouteContext): AnnotationQueueRecord {
  const queue = ctx.store.annotationQueues.getQueue(ctx.params.queueId ?? '');
  if (!queue) throw new HttpError(404, 'Annotation queue not found', 'LangfuseNotFoundError');
  return queue;
}

function createQueue(ctx: RouteContext) {
  const b = parse(CreateQueue, ctx.body);
  const unknown = b.scoreConfigIds.filter((id) => !ctx.store.getScoreConfig(id));
  if (unknown.length > 0) throw new HttpError(400, `Score config(s) not found: ${unknown.join(', ')}`);
  // Langfuse keeps queue names unique per project.
  if (ctx.store.annotationQueues.queues().some((q) => q.name === b.name))
    throw new HttpError(400, 'A queue with this name already exists');
  return ok(queueView(ctx.store.annotationQueues.createQueue(b)));
}

function listQueues(ctx: RouteContext) {
  const { page, limit } = pageParams(ctx.query);
  const { data, meta } = paginate(ctx.store.annotationQueues.queues(), page, limit);
  return ok({ data: data.map(queueView), meta });
}

function listItems(ctx: RouteContext) {
  const queue = queueOf(ctx);
  const { page, limit } = pageParams(ctx.query);
  const rawStatus = ctx.query.get('status');
  const status = rawStatus === null || rawStatus === '' ? undefined : Status.safeParse(rawStatus);
  if (status && !status.success) throw new HttpError(400, 'Invalid request data: status must be PENDING or COMPLETED');
  const { data, meta } = paginate(ctx.store.annotationQueues.items(queue.id, status?.data), page, limit);
  return ok({ data: data.map(itemView), meta });
}

function createItem(ctx: RouteContext) {
  const queue = queueOf(ctx);
  return ok(itemView(ctx.store.annotationQueues.addItem(queue.id, parse(CreateItem, ctx.body))));
}

function itemOf(ctx: RouteContext): AnnotationQueueItemRecord {
  const queue = queueOf(ctx);
  const item = ctx.store.annotationQueues.getItem(queue.id, ctx.params.itemId ?? '');
  if (!item) throw new HttpError(404, 'Annotation queue item not found', 'LangfuseNotFoundError');
  return item;
}

function updateItem(ctx: RouteContext) {
  const item = itemOf(ctx);
  return ok(itemView(ctx.store.annotationQueues.updateItem(item.queueId, item.id, parse(UpdateItem, ctx.body))));
}

function deleteItem(ctx: RouteContext) {
  const item = itemOf(ctx);
  ctx.store.annotationQueues.deleteItem(item.queueId, item.id);
  return ok({ success: true, message: 'Item removed from annotation queue' });
}

function assign(ctx: RouteContext) {
  const queue = queueOf(ctx);
  const { userId } = parse(Assignment, ctx.body);
  ctx.store.annotationQueues.assign(queue.id, userId);
  return ok({ userId, queueId: queue.id, projectId: ctx.store.projectId });
}

function unassign(ctx: RouteContext) {
  const queue = queueOf(ctx);
  ctx.store.annotationQueues.unassign(queue.id, parse(Assignment, ctx.body).userId);
  return ok({ success: true });
}

const base = '/api/public/annotation-queues';

export const annotationQueueRoutes: RouteDefinition[] = [
  { method: 'GET', template: base, handler: listQueues },
  { method: 'POST', template: base, handler: createQueue },
  { method: 'GET', template: `${base}/{queueId}`, handler: (ctx) => ok(queueView(queueOf(ctx))) },
  { method: 'GET', template: `${base}/{queueId}/items`, handler: listItems },
  { method: 'POST', template: `${base}/{queueId}/items`, handler: createItem },
  { method: 'GET', template: `${base}/{queueId}/items/{itemId}`, handler: (ctx) => ok(itemView(itemOf(ctx))) },
  { method: 'PATCH', template: `${base}/{queueId}/items/{itemId}`, handler: updateItem },
  { method: 'DELETE', template: `${base}/{queueId}/items/{itemId}`, handler: deleteItem },
  { method: 'POST', template: `${base}/{queueId}/assignments`, handler: assign },
  { method: 'DELETE', template: `${base}/{queueId}/assignments`, handler: unassign },
];
