/**
 * Dataset runs: run items linking a trace to a dataset item under a run, and earlier runs of a dataset read back,
 * v3 through the dataset runs API and each run item's trace scores, v4 through `/experiments` (runs with their
 * run-level scores) and `/experiment-items` (items with their trace scores).
 */
import type { LangfuseHttp } from '../core/http.js';
import { parseJsonLooking } from '../core/normalize.js';
import type { ApiGeneration } from '../core/types.js';
import { isOwnScore } from './scores.js';

export interface DatasetRunItemInput {
  runName: string;
  datasetItemId: string;
  traceId: string;
  observationId?: string;
  runDescription?: string;
  metadata?: unknown;
}

export interface RunSummary {
  id: string;
  name: string;
  createdAt: string;
  metadata: Record<string, unknown>;
  /** Run-level scores by name, when the listing carries them (v4). */
  runScores: Record<string, number>;
}

export interface DatasetRef {
  id: string;
  name: string;
}

export interface ReadOptions {
  /** v4 lists experiments inside a time window starting here (ISO). */
  since: string;
  signal?: AbortSignal;
  /** Parallel trace reads on v3. */
  concurrency?: number;
}

/** A dataset's earlier runs in Langfuse, on either API generation. */
export interface EarlierRuns {
  /** Every run of the dataset, newest first. */
  list(options: ReadOptions): Promise<RunSummary[]>;
  /** metric → dataset item → value, from the scores on the run's items' traces. */
  itemValues<M extends string>(
    run: RunSummary,
    metricOfScore: ReadonlyMap<string, M>,
    options: ReadOptions,
  ): Promise<Map<M, Map<string, number>>>;
}

export function earlierRuns(http: LangfuseHttp, generation: ApiGeneration, dataset: DatasetRef): EarlierRuns {
  return {
    list: (options) => listDatasetRuns(http, generation, dataset, options),
    itemValues: (run, metricOfScore, options) =>
      readRunItemValues(http, generation, dataset, run, metricOfScore, options),
  };
}

/** Links a trace to a dataset item within a run (the run is created on first use). */
export async function createDatasetRunItem(
  http: LangfuseHttp,
  input: DatasetRunItemInput,
  signal?: AbortSignal,
): Promise<{ id: string; datasetRunId: string }> {
  const res = await http.request<Record<string, unknown>>({
    method: 'POST',
    path: '/api/public/dataset-run-items',
    route: 'POST /api/public/dataset-run-items',
    body: input,
    signal,
  });
  return { id: String(res.data?.id ?? ''), datasetRunId: String(res.data?.datasetRunId ?? '') };
}

/** Every run of the dataset, newest first. */
export async function listDatasetRuns(
  http: LangfuseHttp,
  generation: ApiGeneration,
  dataset: DatasetRef,
  options: ReadOptions,
): Promise<RunSummary[]> {
  const runs = generation === 'v3' ? await listV3(http, dataset, options) : await listV4(http, dataset, options);
  return runs.sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.name < b.name ? 1 : -1,
  );
}

async function listV3(http: LangfuseHttp, dataset: DatasetRef, options: ReadOptions): Promise<RunSummary[]> {
  const out: RunSummary[] = [];
  const limit = 100;
  for (let page = 1; ; page++) {
    const res = await http.request<{ data?: unknown[]; meta?: { totalPages?: number } }>({
      method: 'GET',
      path: `/api/public/datasets/${encodeURIComponent(dataset.name)}/runs`,
      route: 'GET /api/public/datasets/{name}/runs',
      query: { page, limit },
      signal: options.signal,
    });
    const rows = Array.isArray(res.data?.data) ? res.data.data : [];
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      if (typeof r.id !== 'string' || typeof r.name !== 'string') continue;
      out.push({
        id: r.id,
        name: r.name,
        createdAt: String(r.createdAt ?? ''),
        metadata: asRecord(r.metadata),
        runScores: {},
      });
    }
    const totalPages = res.data?.meta?.totalPages;
    if (rows.length < limit || (typeof totalPages === 'number' && page >= totalPages)) return out;
  }
}

async function listV4(http: LangfuseHttp, dataset: DatasetRef, options: ReadOptions): Promise<RunSummary[]> {
  const out: RunSummary[] = [];
  let cursor: string | undefined;
  do {
    const res = await http.request<{ data?: unknown[]; meta?: { cursor?: string | null } }>({
      method: 'GET',
      path: '/api/public/experiments',
      route: 'GET /api/public/experiments',
      query: {
        fromStartTime: options.since,
        datasetId: dataset.id,
        fields: 'core,metadata,scores',
        limit: 100,
        scoreLimit: 50,
        cursor,
      },
      signal: options.signal,
    });
    for (const row of Array.isArray(res.data?.data) ? res.data.data : []) {
      const r = row as Record<string, unknown>;
      if (typeof r.id !== 'string') continue;
      out.push({
        id: r.id,
        name: String(r.name ?? ''),
        createdAt: String(r.startTime ?? ''),
        metadata: asRecord(r.metadata),
        runScores: numericScores(r.scores),
      });
    }
    cursor = res.data?.meta?.cursor ?? undefined;
  } while (cursor);
  return out;
}

/** metric → dataset item → value, from the scores on each run item's trace. */
export async function readRunItemValues<M extends string>(
  http: LangfuseHttp,
  generation: ApiGeneration,
  dataset: DatasetRef,
  run: RunSummary,
  metricOfScore: ReadonlyMap<string, M>,
  options: ReadOptions,
): Promise<Map<M, Map<string, number>>> {
  const out = new Map<M, Map<string, number>>([...new Set(metricOfScore.values())].map((m) => [m, new Map()]));
  const put = (itemId: string, scores: Record<string, number>) => {
    for (const [name, value] of Object.entries(scores)) {
      const metric = metricOfScore.get(name);
      if (metric) out.get(metric)!.set(itemId, value);
    }
  };
  if (generation === 'v4') {
    let cursor: string | undefined;
    do {
      const res = await http.request<{ data?: unknown[]; meta?: { cursor?: string | null } }>({
        method: 'GET',
        path: '/api/public/experiment-items',
        route: 'GET /api/public/experiment-items',
        query: {
          fromStartTime: options.since,
          experimentId: run.id,
          fields: 'core,scores',
          limit: 100,
          scoreLimit: 50,
          cursor,
        },
        signal: options.signal,
      });
      for (const row of Array.isArray(res.data?.data) ? res.data.data : []) {
        const r = row as Record<string, unknown>;
        if (typeof r.experimentItemId === 'string') put(r.experimentItemId, numericScores(r.scores));
      }
      cursor = res.data?.meta?.cursor ?? undefined;
    } while (cursor);
    return out;
  }
  const res = await http.request<{ datasetRunItems?: unknown[] }>({
    method: 'GET',
    path: `/api/public/datasets/${encodeURIComponent(dataset.name)}/runs/${encodeURIComponent(run.name)}`,
    route: 'GET /api/public/datasets/{name}/runs/{runName}',
    signal: options.signal,
  });
  const links = (Array.isArray(res.data?.datasetRunItems) ? res.data.datasetRunItems : [])
    .map((x) => x as Record<string, unknown>)
    .filter((x) => typeof x.datasetItemId === 'string' && typeof x.traceId === 'string')
    .map((x) => ({ itemId: x.datasetItemId as string, traceId: x.traceId as string }));
  const queue = [...links];
  const worker = async () => {
    for (let link = queue.shift(); link; link = queue.shift()) {
      const trace = await http.request<{ scores?: unknown }>({
        method: 'GET',
        path: `/api/public/traces/${encodeURIComponent(link.traceId)}`,
        route: 'GET /api/public/traces/{id}',
        accept: [404],
        signal: options.signal,
      });
      if (trace.status !== 404) put(link.itemId, numericScores(trace.data?.scores));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return out;
}

/**
 * ragwatch's own numeric scores by name. Only source `API` (what ragwatch's ingestion writes): a person who
 * annotated the trace in the Langfuse UI with ragwatch's score config left a score of the same name with source
 * `ANNOTATION`, and people's scores never count as the judge's. The caller keeps only ragwatch's names.
 */
export function numericScores(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!Array.isArray(value)) return out;
  for (const s of value) {
    const r = s as Record<string, unknown>;
    if (!isOwnScore(r)) continue;
    if (typeof r?.name === 'string' && typeof r.value === 'number' && Number.isFinite(r.value)) out[r.name] = r.value;
  }
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  const v = parseJsonLooking(value);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
