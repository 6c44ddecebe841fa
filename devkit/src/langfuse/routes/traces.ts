import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { dateTime, optionalString, pageParams, paginate, stringList } from '../query.js';
import type { LangfuseStore } from '../store.js';
import type { TraceRecord } from '../types.js';
import { TRACE_FIELD_GROUPS, traceDetail, traceListItem, type TraceFieldGroup } from '../views.js';
import { memoize, ok, v4Rejection, visibility, visibilityKey } from './common.js';

const ORDERABLE = [
  'id',
  'timestamp',
  'name',
  'userId',
  'release',
  'version',
  'public',
  'bookmarked',
  'sessionId',
] as const;
type Orderable = (typeof ORDERABLE)[number];

/** `fields`: absent means every group; `core` is always included; unknown names are a 400. */
function parseTraceFields(raw: string | undefined): Set<TraceFieldGroup> {
  if (raw === undefined) return new Set(TRACE_FIELD_GROUPS);
  const groups = new Set<TraceFieldGroup>(['core']);
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (!(TRACE_FIELD_GROUPS as readonly string[]).includes(part)) {
      throw new HttpError(400, `Invalid request data: unknown field group "${part}"`);
    }
    groups.add(part as TraceFieldGroup);
  }
  return groups;
}

function parseOrderBy(raw: string | undefined): { field: Orderable; desc: boolean } {
  if (raw === undefined) return { field: 'timestamp', desc: true };
  const [field, direction] = raw.split('.');
  if (!(ORDERABLE as readonly string[]).includes(field ?? '') || (direction !== 'asc' && direction !== 'desc')) {
    throw new HttpError(400, `Invalid request data: orderBy must be [${ORDERABLE.join('|')}].[asc|desc]`);
  }
  return { field: field as Orderable, desc: direction === 'desc' };
}

const filteredTraces = memoize<LangfuseStore, TraceRecord[]>();

function listTraces(ctx: RouteContext) {
  const q = ctx.query;
  const { page, limit } = pageParams(q, 100);
  const groups = parseTraceFields(optionalString(q, 'fields'));
  const orderBy = parseOrderBy(optionalString(q, 'orderBy'));
  const filter = {
    userId: optionalString(q, 'userId'),
    name: optionalString(q, 'name'),
    sessionId: optionalString(q, 'sessionId'),
    from: dateTime(q, 'fromTimestamp'),
    to: dateTime(q, 'toTimestamp'),
    tags: stringList(q, 'tags'),
    version: optionalString(q, 'version'),
    release: optionalString(q, 'release'),
    environment: stringList(q, 'environment'),
  };
  const key = JSON.stringify([filter, orderBy, visibilityKey(ctx), ctx.store.version]);
  const list = filteredTraces(ctx.store, key, () => {
    const visible = visibility(ctx);
    const matches = ctx.store
      .tracesByTimeDesc()
      .filter(
        (t) =>
          visible(t) &&
          (filter.userId === undefined || t.userId === filter.userId) &&
          (filter.name === undefined || t.name === filter.name) &&
          (filter.sessionId === undefined || t.sessionId === filter.sessionId) &&
          (filter.from === undefined || t.timestamp >= filter.from) &&
          (filter.to === undefined || t.timestamp < filter.to) &&
          (filter.tags === undefined || filter.tags.every((tag) => t.tags.includes(tag))) &&
          (filter.version === undefined || t.version === filter.version) &&
          (filter.release === undefined || t.release === filter.release) &&
          (filter.environment === undefined || filter.environment.includes(t.environment)),
      );
    if (orderBy.field === 'timestamp' && orderBy.desc) return matches;
    return [...matches].sort((a, b) => compareBy(a, b, orderBy.field) * (orderBy.desc ? -1 : 1));
  });
  const { data, meta } = paginate(list, page, limit);
  return ok({ data: data.map((t) => traceListItem(t, ctx.store, groups)), meta });
}

function compareBy(a: TraceRecord, b: TraceRecord, field: Orderable): number {
  const av = a[field];
  const bv = b[field];
  if (av === bv) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  if (av === null) return -1;
  if (bv === null) return 1;
  return av < bv ? -1 : 1;
}

function getTrace(ctx: RouteContext) {
  const groups = parseTraceFields(optionalString(ctx.query, 'fields'));
  const trace = ctx.store.getTrace(ctx.params.traceId ?? '');
  const visible = visibility(ctx);
  if (!trace || !visible(trace)) {
    throw new HttpError(404, 'Trace not found within authorized project', 'LangfuseNotFoundError');
  }
  return ok(traceDetail(trace, ctx.store, groups, visible));
}

export const traceRoutes: RouteDefinition[] = [
  { method: 'GET', template: '/api/public/traces', handler: listTraces, preAuth: v4Rejection },
  { method: 'GET', template: '/api/public/traces/{traceId}', handler: getTrace, preAuth: v4Rejection },
];
