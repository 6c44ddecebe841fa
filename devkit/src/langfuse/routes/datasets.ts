import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { optionalString, pageParams, paginate } from '../query.js';
import { datasetItemView, datasetRunItemView, datasetRunView, datasetView } from '../views.js';
import { iso } from '../values.js';
import { ok, v4Rejection } from './common.js';

const CreateDataset = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  metadata: z.unknown().nullish(),
  inputSchema: z.unknown().nullish(),
  expectedOutputSchema: z.unknown().nullish(),
});

const CreateDatasetItem = z.object({
  datasetName: z.string().min(1),
  input: z.unknown().nullish(),
  expectedOutput: z.unknown().nullish(),
  metadata: z.unknown().nullish(),
  sourceTraceId: z.string().nullish(),
  sourceObservationId: z.string().nullish(),
  id: z.string().max(255).nullish(),
  status: z.enum(['ACTIVE', 'ARCHIVED']).nullish(),
});

const CreateRunItem = z
  .object({
    runName: z.string().min(1),
    runDescription: z.string().nullish(),
    metadata: z.unknown().nullish(),
    datasetItemId: z.string().min(1),
    observationId: z.string().nullish(),
    traceId: z.string().nullish(),
    datasetVersion: z.iso.datetime({ offset: true }).nullish(),
    createdAt: z.iso.datetime({ offset: true }).nullish(),
  })
  .refine((b) => Boolean(b.traceId || b.observationId), { message: 'traceId or observationId is required' });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'Invalid request data', parsed.error.issues);
  return parsed.data;
}

function notFound(message: string): never {
  throw new HttpError(404, message, 'LangfuseNotFoundError');
}

function createDataset(ctx: RouteContext) {
  const b = parse(CreateDataset, ctx.body);
  const record = ctx.store.createDataset({
    name: b.name,
    description: b.description ?? undefined,
    metadata: b.metadata ?? undefined,
    inputSchema: b.inputSchema ?? undefined,
    expectedOutputSchema: b.expectedOutputSchema ?? undefined,
  });
  return ok(datasetView(record, ctx.store.projectId));
}

function listDatasets(ctx: RouteContext) {
  const { page, limit } = pageParams(ctx.query);
  const { data, meta } = paginate(ctx.store.datasets(), page, limit);
  return ok({ data: data.map((d) => datasetView(d, ctx.store.projectId)), meta });
}

function getDataset(ctx: RouteContext) {
  const dataset = ctx.store.getDataset(ctx.params.datasetName ?? '') ?? notFound('Dataset not found');
  return ok(datasetView(dataset, ctx.store.projectId));
}

function createItem(ctx: RouteContext) {
  const b = parse(CreateDatasetItem, ctx.body);
  const item = ctx.store.createDatasetItem({
    datasetName: b.datasetName,
    id: b.id ?? undefined,
    input: b.input ?? undefined,
    expectedOutput: b.expectedOutput ?? undefined,
    metadata: b.metadata ?? undefined,
    sourceTraceId: b.sourceTraceId ?? undefined,
    sourceObservationId: b.sourceObservationId ?? undefined,
    status: b.status ?? undefined,
  });
  return ok(datasetItemView(item, b.datasetName));
}

function listItems(ctx: RouteContext) {
  const { page, limit } = pageParams(ctx.query);
  const datasetName = optionalString(ctx.query, 'datasetName');
  const sourceTraceId = optionalString(ctx.query, 'sourceTraceId');
  const sourceObservationId = optionalString(ctx.query, 'sourceObservationId');
  if (optionalString(ctx.query, 'version') !== undefined && datasetName === undefined) {
    throw new HttpError(400, 'Invalid request data: version requires datasetName');
  }
  let items = ctx.store.datasetTable.allItems();
  if (datasetName !== undefined) {
    const dataset = ctx.store.getDataset(datasetName) ?? notFound('Dataset not found');
    items = items.filter((i) => i.datasetId === dataset.id);
  }
  // Archived items are listed too, with their status, as Langfuse's public API lists them (the client filters).
  items = items.filter(
    (i) =>
      (sourceTraceId === undefined || i.sourceTraceId === sourceTraceId) &&
      (sourceObservationId === undefined || i.sourceObservationId === sourceObservationId),
  );
  const { data, meta } = paginate(items, page, limit);
  return ok({
    data: data.map((i) => datasetItemView(i, ctx.store.datasetTable.getDatasetById(i.datasetId)?.name ?? '')),
    meta,
  });
}

function getItem(ctx: RouteContext) {
  const item = ctx.store.getDatasetItem(ctx.params.id ?? '') ?? notFound('Dataset item not found');
  return ok(datasetItemView(item, ctx.store.datasetTable.getDatasetById(item.datasetId)?.name ?? ''));
}

/**
 * v3 records the run item. v4 (events_only) records nothing and answers with a stable experiment id derived
 * from (project, dataset, run name), as Langfuse does, so the SDK's experiment runner can tag its spans.
 */
function createRunItem(ctx: RouteContext) {
  const b = parse(CreateRunItem, ctx.body);
  const traceId =
    b.traceId ?? (b.observationId ? ctx.store.getObservation(b.observationId)?.traceId : undefined) ?? null;
  if (ctx.personality === 'v4') {
    const item = ctx.store.getDatasetItem(b.datasetItemId);
    if (!item || item.status !== 'ACTIVE') notFound('Dataset item not found');
    const createdAt = b.createdAt ? Date.parse(b.createdAt) : ctx.now();
    return ok({
      id: randomUUID(),
      datasetRunId: stableExperimentId(ctx.store.projectId, item.datasetId, b.runName),
      datasetRunName: b.runName,
      datasetItemId: item.id,
      traceId: b.traceId ?? '',
      observationId: b.observationId ?? null,
      createdAt: iso(createdAt),
      updatedAt: iso(createdAt),
    });
  }
  if (traceId === null) throw new HttpError(400, 'Invalid request data: traceId could not be inferred');
  const { run, runItem } = ctx.store.recordDatasetRunItem({
    runName: b.runName,
    runDescription: b.runDescription,
    metadata: b.metadata ?? undefined,
    datasetItemId: b.datasetItemId,
    traceId,
    observationId: b.observationId ?? null,
    createdAt: b.createdAt ?? undefined,
  });
  return ok(datasetRunItemView(run, runItem));
}

export function stableExperimentId(projectId: string, datasetId: string, runName: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['langfuse-experiment-v1', projectId, datasetId, runName]), 'utf8')
    .digest('hex')
    .slice(0, 16);
}

function listRuns(ctx: RouteContext) {
  const { page, limit } = pageParams(ctx.query);
  if (!ctx.store.getDataset(ctx.params.datasetName ?? '')) notFound('Dataset not found');
  const { data, meta } = paginate(ctx.store.datasetRuns(ctx.params.datasetName ?? ''), page, limit);
  return ok({ data: data.map(datasetRunView), meta });
}

function getRun(ctx: RouteContext) {
  if (!ctx.store.getDataset(ctx.params.datasetName ?? '')) notFound('Dataset not found');
  const run =
    ctx.store.datasetRuns(ctx.params.datasetName ?? '').find((r) => r.name === ctx.params.runName) ??
    notFound('Dataset run not found');
  return ok({ ...datasetRunView(run), datasetRunItems: run.items.map((item) => datasetRunItemView(run, item)) });
}

export const datasetRoutes: RouteDefinition[] = [
  { method: 'POST', template: '/api/public/v2/datasets', handler: createDataset },
  { method: 'GET', template: '/api/public/v2/datasets', handler: listDatasets },
  { method: 'GET', template: '/api/public/v2/datasets/{datasetName}', handler: getDataset },
  { method: 'POST', template: '/api/public/dataset-items', handler: createItem },
  { method: 'GET', template: '/api/public/dataset-items', handler: listItems },
  { method: 'GET', template: '/api/public/dataset-items/{id}', handler: getItem },
  { method: 'POST', template: '/api/public/dataset-run-items', handler: createRunItem },
  { method: 'GET', template: '/api/public/datasets/{datasetName}/runs', handler: listRuns, preAuth: v4Rejection },
  {
    method: 'GET',
    template: '/api/public/datasets/{datasetName}/runs/{runName}',
    handler: getRun,
    preAuth: v4Rejection,
  },
];
