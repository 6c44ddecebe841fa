import { commaList, dateTime, integer, optionalString, pageParams, paginate, stringList } from '../query.js';
import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import type { ScoreRecord } from '../types.js';
import { scoreV1View, scoreV3View } from '../views.js';
import { ok, v3Rejection, v4Rejection } from './common.js';

/**
 * Reading scores back: `GET /api/public/v2/scores` (Langfuse v3; gone on v4) and `GET /api/public/v3/scores`
 * (v4: cursor paging, field groups, comma-separated filters). Both newest first. Human annotations come back
 * here with `source: ANNOTATION` and the queue they were made in.
 */

const DATA_TYPES = ['NUMERIC', 'BOOLEAN', 'CATEGORICAL', 'TEXT', 'CORRECTION'];
const SOURCES = ['API', 'ANNOTATION', 'EVAL'];
const V3_GROUPS = ['details', 'subject', 'annotation'];

function byTimeDesc(a: ScoreRecord, b: ScoreRecord): number {
  return b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function oneOf(list: readonly string[], value: string, name: string): string {
  const upper = value.toUpperCase();
  if (!list.includes(upper))
    throw new HttpError(400, `Invalid request data: ${name} must be one of ${list.join(', ')}`);
  return upper;
}

// ── v2 (Langfuse v3) ─────────────────────────────────────────────────────────

const OPERATORS: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
  '=': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

function listV2(ctx: RouteContext) {
  const { page, limit } = pageParams(ctx.query, 100);
  const q = ctx.query;
  const fields = new Set(commaList(q, 'fields') ?? ['score', 'trace']);
  for (const f of fields)
    if (f !== 'score' && f !== 'trace') throw new HttpError(400, `Invalid request data: unknown field group ${f}`);
  const userId = optionalString(q, 'userId');
  const traceTags = stringList(q, 'traceTags');
  if ((userId !== undefined || traceTags !== undefined) && !fields.has('trace')) {
    throw new HttpError(400, 'Invalid request data: filtering by trace properties requires the trace field group');
  }
  const source = optionalString(q, 'source');
  const dataType = optionalString(q, 'dataType');
  const operator = optionalString(q, 'operator');
  const rawValue = optionalString(q, 'value');
  if ((operator === undefined) !== (rawValue === undefined))
    throw new HttpError(400, 'Invalid request data: operator and value go together');
  if (operator !== undefined && !OPERATORS[operator])
    throw new HttpError(400, `Invalid request data: unknown operator ${operator}`);
  const value = rawValue === undefined ? undefined : Number(rawValue);
  if (value !== undefined && !Number.isFinite(value))
    throw new HttpError(400, 'Invalid request data: value must be a number');
  const from = dateTime(q, 'fromTimestamp');
  const to = dateTime(q, 'toTimestamp');
  const environments = stringList(q, 'environment');
  const scoreIds = commaList(q, 'scoreIds');
  const observationIds = commaList(q, 'observationId');
  const eq = (name: string) => optionalString(q, name);
  const wanted = {
    name: eq('name'),
    source: source === undefined ? undefined : oneOf(SOURCES, source, 'source'),
    dataType: dataType === undefined ? undefined : oneOf(DATA_TYPES, dataType, 'dataType'),
    configId: eq('configId'),
    queueId: eq('queueId'),
    traceId: eq('traceId'),
    sessionId: eq('sessionId'),
    datasetRunId: eq('datasetRunId'),
  };
  const rows = ctx.store
    .scores()
    .filter((s) => {
      for (const [key, v] of Object.entries(wanted))
        if (v !== undefined && s[key as keyof typeof wanted] !== v) return false;
      if (from !== undefined && s.timestamp < from) return false;
      if (to !== undefined && s.timestamp >= to) return false;
      if (environments && !environments.includes(s.environment)) return false;
      if (scoreIds && !scoreIds.includes(s.id)) return false;
      if (observationIds && !observationIds.includes(s.observationId ?? '')) return false;
      if (operator !== undefined && value !== undefined && !OPERATORS[operator]!(s.value, value)) return false;
      const trace = s.traceId ? ctx.store.getTrace(s.traceId) : undefined;
      if (userId !== undefined && trace?.userId !== userId) return false;
      if (traceTags && !traceTags.every((t) => trace?.tags.includes(t))) return false;
      return true;
    })
    .sort(byTimeDesc);
  const { data, meta } = paginate(rows, page, limit);
  return ok({
    data: data.map((s) => {
      const view: Record<string, unknown> = scoreV1View(s, ctx.store.projectId);
      if (fields.has('trace')) {
        const t = s.traceId ? ctx.store.getTrace(s.traceId) : undefined;
        view.trace = t ? { userId: t.userId, tags: t.tags, environment: t.environment, sessionId: t.sessionId } : null;
      }
      return view;
    }),
    meta,
  });
}

function getV2(ctx: RouteContext) {
  const score = ctx.store.scores({ id: ctx.params.scoreId ?? '' })[0];
  if (!score) throw new HttpError(404, 'Score not found', 'LangfuseNotFoundError');
  return ok(scoreV1View(score, ctx.store.projectId));
}

// ── v3 (Langfuse v4) ─────────────────────────────────────────────────────────

function decodeCursor(raw: string | undefined): number {
  if (raw === undefined) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof parsed.offset === 'number' && Number.isInteger(parsed.offset) && parsed.offset >= 0)
      return parsed.offset;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'Invalid request data: cursor is not valid');
}

function listV3(ctx: RouteContext) {
  const q = ctx.query;
  const limit = integer(q, 'limit', { default: 50, min: 1, max: 100 });
  const offset = decodeCursor(optionalString(q, 'cursor'));
  const groups = new Set(commaList(q, 'fields') ?? []);
  for (const g of groups)
    if (!V3_GROUPS.includes(g)) throw new HttpError(400, `Invalid request data: unknown field group ${g}`);
  const list = (name: string) => commaList(q, name);
  const upper = (name: string, allowed: readonly string[]) => list(name)?.map((v) => oneOf(allowed, v, name));
  const traceIds = list('traceId');
  const sessionIds = list('sessionId');
  const experimentIds = list('experimentId');
  const observationIds = list('observationId');
  if ([traceIds, sessionIds, experimentIds].filter(Boolean).length > 1) {
    throw new HttpError(400, 'Invalid request data: traceId, sessionId and experimentId are mutually exclusive');
  }
  if (observationIds && !traceIds) throw new HttpError(400, 'Invalid request data: observationId requires traceId');
  const dataTypes = upper('dataType', DATA_TYPES);
  const values = list('value');
  const valueMin = optionalString(q, 'valueMin');
  const valueMax = optionalString(q, 'valueMax');
  if ((values || valueMin !== undefined || valueMax !== undefined) && dataTypes?.length !== 1) {
    throw new HttpError(400, 'Invalid request data: value filters need exactly one dataType');
  }
  if ((valueMin !== undefined || valueMax !== undefined) && dataTypes?.[0] !== 'NUMERIC') {
    throw new HttpError(400, 'Invalid request data: valueMin and valueMax need dataType NUMERIC');
  }
  const filters: Array<[string[] | undefined, (s: ScoreRecord) => string | null]> = [
    [list('id'), (s) => s.id],
    [list('name'), (s) => s.name],
    [upper('source', SOURCES), (s) => s.source],
    [dataTypes, (s) => s.dataType],
    [list('environment'), (s) => s.environment],
    [list('configId'), (s) => s.configId],
    [list('queueId'), (s) => s.queueId],
    [list('authorUserId'), () => null],
    [traceIds, (s) => s.traceId],
    [sessionIds, (s) => s.sessionId],
    [experimentIds, (s) => s.datasetRunId],
    [observationIds, (s) => s.observationId],
  ];
  const from = dateTime(q, 'fromTimestamp');
  const to = dateTime(q, 'toTimestamp');
  const min = valueMin === undefined ? undefined : Number(valueMin);
  const max = valueMax === undefined ? undefined : Number(valueMax);
  const rows = ctx.store
    .scores()
    .filter((s) => {
      for (const [allowed, field] of filters) if (allowed && !allowed.includes(field(s) ?? '')) return false;
      if (from !== undefined && s.timestamp < from) return false;
      if (to !== undefined && s.timestamp >= to) return false;
      if (
        values &&
        !values.includes(s.dataType === 'NUMERIC' || s.dataType === 'BOOLEAN' ? String(s.value) : (s.stringValue ?? ''))
      ) {
        return false;
      }
      if (min !== undefined && s.value < min) return false;
      if (max !== undefined && s.value > max) return false;
      return true;
    })
    .sort(byTimeDesc);
  const page = rows.slice(offset, offset + limit);
  const next =
    offset + limit < rows.length
      ? Buffer.from(JSON.stringify({ offset: offset + limit })).toString('base64url')
      : undefined;
  return ok({
    data: page.map((s) => v3View(s, ctx.store.projectId, groups)),
    meta: { limit, ...(next ? { cursor: next } : {}) },
  });
}

function v3View(s: ScoreRecord, projectId: string, groups: Set<string>) {
  const view: Record<string, unknown> = scoreV3View(s, projectId);
  if (groups.has('details')) Object.assign(view, { comment: s.comment, configId: s.configId, metadata: s.metadata });
  if (groups.has('annotation')) Object.assign(view, { authorUserId: null, queueId: s.queueId });
  if (groups.has('subject')) view.subject = subjectOf(s);
  return view;
}

function subjectOf(s: ScoreRecord) {
  if (s.observationId) return { kind: 'observation', id: s.observationId, traceId: s.traceId };
  if (s.traceId) return { kind: 'trace', id: s.traceId };
  if (s.sessionId) return { kind: 'session', id: s.sessionId };
  if (s.datasetRunId) return { kind: 'experiment', id: s.datasetRunId };
  return null;
}

export const scoreReadRoutes: RouteDefinition[] = [
  { method: 'GET', template: '/api/public/v2/scores', handler: listV2, preAuth: v4Rejection },
  { method: 'GET', template: '/api/public/v2/scores/{scoreId}', handler: getV2, preAuth: v4Rejection },
  { method: 'GET', template: '/api/public/v3/scores', handler: (ctx) => v3Rejection(ctx, 'scores v3') ?? listV3(ctx) },
];
