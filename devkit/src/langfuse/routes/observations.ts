import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import {
  booleanParam,
  commaList,
  dateTime,
  decodeCursor,
  encodeCursor,
  integer,
  optionalString,
  stringList,
} from '../query.js';
import { compareObservationsDesc, type LangfuseStore } from '../store.js';
import { OBSERVATION_TYPES, type ObservationRecord } from '../types.js';
import { isRootObservation, observationV2View, parseObservationFields } from '../observation-v2.js';
import { compileObservationFilter } from '../observation-filter.js';
import { memoize, ok, visibility, visibilityKey } from './common.js';

const LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'];

interface Cursor {
  lastStartTimeTo: string;
  lastTraceId: string;
  lastId: string;
}

function parseCursor(raw: string | undefined): ObservationRecord | undefined {
  if (raw === undefined) return undefined;
  const cursor = decodeCursor(raw) as Partial<Cursor>;
  const ms = typeof cursor?.lastStartTimeTo === 'string' ? Date.parse(cursor.lastStartTimeTo) : NaN;
  if (Number.isNaN(ms) || typeof cursor.lastTraceId !== 'string' || typeof cursor.lastId !== 'string') {
    throw new HttpError(400, 'Invalid cursor format');
  }
  // A probe record positioned where the previous page ended.
  return { startTime: ms, traceId: cursor.lastTraceId, id: cursor.lastId } as ObservationRecord;
}

const filteredObservations = memoize<LangfuseStore, ObservationRecord[]>();

function listObservations(ctx: RouteContext) {
  const q = ctx.query;
  if (optionalString(q, 'parseIoAsJson') === 'true') {
    throw new HttpError(
      400,
      'parseIoAsJson=true is no longer supported on the v2 observations endpoint. Input/output fields are always returned as raw strings. Remove the parseIoAsJson parameter or set it to false.',
    );
  }
  const limit = integer(q, 'limit', { default: 50, min: 0, max: 1000 });
  const groups = parseObservationFields(optionalString(q, 'fields'));
  const expand = new Set(commaList(q, 'expandMetadata') ?? []);
  const after = parseCursor(optionalString(q, 'cursor'));
  const type = optionalString(q, 'type');
  if (type !== undefined && !(OBSERVATION_TYPES as readonly string[]).includes(type)) {
    throw new HttpError(400, `Invalid request data: type must be one of ${OBSERVATION_TYPES.join(', ')}`);
  }
  const level = optionalString(q, 'level');
  if (level !== undefined && !LEVELS.includes(level)) {
    throw new HttpError(400, `Invalid request data: level must be one of ${LEVELS.join(', ')}`);
  }
  const parentParam = q.has('parentObservationId') ? (q.get('parentObservationId') ?? '') : undefined;
  const rawFilter = optionalString(q, 'filter');
  const filter = {
    traceId: optionalString(q, 'traceId'),
    type,
    name: optionalString(q, 'name'),
    userId: optionalString(q, 'userId'),
    sessionId: optionalString(q, 'sessionId'),
    level,
    version: optionalString(q, 'version'),
    parent: parentParam,
    isRoot: booleanParam(q, 'isRootObservation'),
    environment: stringList(q, 'environment'),
    from: dateTime(q, 'fromStartTime'),
    to: dateTime(q, 'toStartTime'),
    advanced: rawFilter,
  };
  // The structured filter takes precedence over the individual query parameters.
  const advanced = rawFilter === undefined ? undefined : compileObservationFilter(rawFilter, ctx.store);
  const key = JSON.stringify([filter, visibilityKey(ctx), ctx.store.version]);
  const list = filteredObservations(ctx.store, key, () => {
    const visible = visibility(ctx);
    return ctx.store.observationsByTimeDesc().filter((o) => {
      if (!visible(o)) return false;
      if (advanced) return advanced(o);
      const trace = o.traceId === null ? undefined : ctx.store.getTrace(o.traceId);
      return (
        (filter.traceId === undefined || o.traceId === filter.traceId) &&
        (filter.type === undefined || o.type === filter.type) &&
        (filter.name === undefined || o.name === filter.name) &&
        (filter.userId === undefined || (o.userId ?? trace?.userId) === filter.userId) &&
        (filter.sessionId === undefined || (o.sessionId ?? trace?.sessionId) === filter.sessionId) &&
        (filter.level === undefined || o.level === filter.level) &&
        (filter.version === undefined || o.version === filter.version) &&
        (filter.parent === undefined ||
          (filter.parent === '' ? o.parentObservationId === null : o.parentObservationId === filter.parent)) &&
        (filter.isRoot === undefined || isRootObservation(o) === filter.isRoot) &&
        (filter.environment === undefined || filter.environment.includes(o.environment)) &&
        (filter.from === undefined || o.startTime >= filter.from) &&
        (filter.to === undefined || o.startTime < filter.to)
      );
    });
  });
  const start = after ? firstAfter(list, after) : 0;
  const page = list.slice(start, start + limit);
  const hasMore = start + limit < list.length && page.length > 0;
  const last = page[page.length - 1];
  const meta =
    hasMore && last
      ? {
          cursor: encodeCursor({
            lastStartTimeTo: new Date(last.startTime).toISOString(),
            lastTraceId: last.traceId ?? '',
            lastId: last.id,
          }),
        }
      : {};
  return ok({
    data: page.map((o) =>
      observationV2View(
        o,
        o.traceId === null ? undefined : ctx.store.getTrace(o.traceId),
        ctx.store.projectId,
        groups,
        expand,
      ),
    ),
    meta,
  });
}

/** Index of the first record strictly after the cursor in the descending order (binary search). */
function firstAfter(list: ObservationRecord[], probe: ObservationRecord): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareObservationsDesc(list[mid]!, probe) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const observationRoutes: RouteDefinition[] = [
  { method: 'GET', template: '/api/public/v2/observations', handler: listObservations },
];
