import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { commaList, dateTime, decodeCursor, encodeCursor, integer, optionalString } from '../query.js';
import type { ObservationRecord } from '../types.js';
import { scoreV3View } from '../views.js';
import { iso, isoOrNull } from '../values.js';
import { compareObservationsDesc } from '../store.js';
import { ok, v3Rejection, visibility } from './common.js';

const EXPERIMENT_GROUPS = ['core', 'metadata', 'scores'];
const ITEM_GROUPS = ['core', 'dataset', 'io', 'metadata', 'itemMetadata', 'experimentMetadata', 'scores'];

function groups(raw: string | undefined, allowed: string[], fallback: string[]): Set<string> {
  const names =
    raw === undefined
      ? fallback
      : raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  for (const name of names) {
    if (!allowed.includes(name)) throw new HttpError(400, `Invalid request data: unknown field group "${name}"`);
  }
  return new Set(['core', ...names]);
}

function window(ctx: RouteContext): { from: number; to: number | undefined } {
  const from = dateTime(ctx.query, 'fromStartTime');
  if (from === undefined) throw new HttpError(400, 'Invalid request data: fromStartTime is required');
  return { from, to: dateTime(ctx.query, 'toStartTime') };
}

/** Experiment-tagged observations inside the window, newest first. */
function experimentEvents(ctx: RouteContext, from: number, to: number | undefined): ObservationRecord[] {
  const visible = visibility(ctx);
  return ctx.store
    .observationsByTimeDesc()
    .filter(
      (o) => o.experiment !== null && visible(o) && o.startTime >= from && (to === undefined || o.startTime < to),
    );
}

function listExperiments(ctx: RouteContext) {
  const { from, to } = window(ctx);
  const fields = groups(optionalString(ctx.query, 'fields'), EXPERIMENT_GROUPS, ['core']);
  const limit = integer(ctx.query, 'limit', { default: 50, min: 1, max: 100 });
  const scoreLimit = integer(ctx.query, 'scoreLimit', { default: 50, min: 1, max: 50 });
  const ids = commaList(ctx.query, 'id');
  const names = commaList(ctx.query, 'name');
  const datasetIds = commaList(ctx.query, 'datasetId');
  const cursor = optionalString(ctx.query, 'cursor');
  const after =
    cursor === undefined ? undefined : (decodeCursor(cursor, true) as { lastExperimentId?: string }).lastExperimentId;

  const summaries = new Map<string, { events: ObservationRecord[] }>();
  for (const o of experimentEvents(ctx, from, to)) {
    const exp = o.experiment!;
    if (ids && !ids.includes(exp.id)) continue;
    if (names && !names.includes(exp.name ?? '')) continue;
    if (datasetIds && !datasetIds.includes(exp.datasetId ?? '')) continue;
    let entry = summaries.get(exp.id);
    if (!entry) summaries.set(exp.id, (entry = { events: [] }));
    entry.events.push(o);
  }
  const ordered = [...summaries.entries()];
  const start = after === undefined ? 0 : ordered.findIndex(([id]) => id === after) + 1;
  const page = ordered.slice(start, start + limit);
  const hasMore = start + limit < ordered.length;
  const data = page.map(([id, { events }]) => {
    const exp = events[0]!.experiment!;
    const startTime = Math.min(...events.map((e) => e.startTime));
    const endTime = Math.max(...events.map((e) => Math.max(e.startTime, e.endTime ?? e.startTime)));
    const itemCount = events.filter((e) => e.experiment?.itemRootObservationId === e.id).length;
    return {
      id,
      name: exp.name ?? '',
      description: exp.description,
      startTime: iso(startTime),
      endTime: iso(endTime),
      itemCount,
      datasetId: exp.datasetId,
      ...(fields.has('metadata') ? { metadata: exp.metadata } : {}),
      ...(fields.has('scores')
        ? {
            scores: ctx.store
              .scores()
              .filter((s) => s.datasetRunId === id)
              .slice(0, scoreLimit)
              .map((s) => scoreV3View(s, ctx.store.projectId)),
          }
        : {}),
    };
  });
  const last = page[page.length - 1];
  return ok({ data, meta: hasMore && last ? { cursor: encodeCursor({ v: 1, lastExperimentId: last[0] }, true) } : {} });
}

function listExperimentItems(ctx: RouteContext) {
  const { from, to } = window(ctx);
  const fields = groups(optionalString(ctx.query, 'fields'), ITEM_GROUPS, ['core', 'dataset']);
  const limit = integer(ctx.query, 'limit', { default: 50, min: 1, max: 100 });
  const scoreLimit = integer(ctx.query, 'scoreLimit', { default: 50, min: 1, max: 50 });
  const experimentIds = commaList(ctx.query, 'experimentId');
  const experimentNames = commaList(ctx.query, 'experimentName');
  const itemIds = commaList(ctx.query, 'experimentItemId');
  const datasetIds = commaList(ctx.query, 'datasetId');
  const cursor = optionalString(ctx.query, 'cursor');
  const items = experimentEvents(ctx, from, to).filter((o) => {
    const exp = o.experiment!;
    return (
      exp.itemRootObservationId === o.id &&
      exp.itemId !== null &&
      o.traceId !== null &&
      (!experimentIds || experimentIds.includes(exp.id)) &&
      (!experimentNames || experimentNames.includes(exp.name ?? '')) &&
      (!itemIds || itemIds.includes(exp.itemId)) &&
      (!datasetIds || datasetIds.includes(exp.datasetId ?? ''))
    );
  });
  let start = 0;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor, true) as { lastTime?: string; lastTraceId?: string; lastId?: string };
    const probe = {
      startTime: Date.parse(c.lastTime ?? ''),
      traceId: c.lastTraceId ?? '',
      id: c.lastId ?? '',
    } as ObservationRecord;
    if (Number.isNaN(probe.startTime)) throw new HttpError(400, 'Invalid cursor format');
    start = items.findIndex((o) => compareObservationsDesc(o, probe) > 0);
    if (start < 0) start = items.length;
  }
  const page = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  const data = page.map((o) => {
    const exp = o.experiment!;
    return {
      id: o.id,
      traceId: o.traceId,
      startTime: iso(o.startTime),
      endTime: isoOrNull(o.endTime),
      level: o.level,
      environment: o.environment,
      experimentId: exp.id,
      experimentName: exp.name ?? '',
      experimentItemId: exp.itemId,
      ...(fields.has('dataset') ? { experimentDatasetId: exp.datasetId, experimentItemVersion: exp.itemVersion } : {}),
      ...(fields.has('io') ? { input: o.input, output: o.output, expectedOutput: exp.itemExpectedOutput } : {}),
      ...(fields.has('metadata') ? { metadata: o.metadata } : {}),
      ...(fields.has('itemMetadata') ? { experimentItemMetadata: exp.itemMetadata } : {}),
      ...(fields.has('experimentMetadata')
        ? { experimentMetadata: exp.metadata, experimentDescription: exp.description }
        : {}),
      ...(fields.has('scores')
        ? {
            scores: ctx.store
              .scores({ traceId: o.traceId! })
              .slice(0, scoreLimit)
              .map((s) => scoreV3View(s, ctx.store.projectId)),
          }
        : {}),
    };
  });
  const last = page[page.length - 1];
  const meta =
    hasMore && last
      ? {
          cursor: encodeCursor(
            {
              v: 1,
              lastTime: iso(last.startTime),
              lastTraceId: last.traceId,
              lastId: last.id,
              lastExperimentId: last.experiment!.id,
            },
            true,
          ),
        }
      : {};
  return ok({ data, meta });
}

export const experimentRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    template: '/api/public/experiments',
    handler: (ctx) => v3Rejection(ctx, 'experiments') ?? listExperiments(ctx),
  },
  {
    method: 'GET',
    template: '/api/public/experiment-items',
    handler: (ctx) => v3Rejection(ctx, 'experiments') ?? listExperimentItems(ctx),
  },
];
