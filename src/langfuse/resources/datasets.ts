import type { LangfuseHttp } from '../core/http.js';
import { parseJsonLooking } from '../core/normalize.js';

/** Datasets and their items: what the golden-set experiment reads and the golden-set builder writes. */

export interface Dataset {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
}

export interface DatasetItem {
  id: string;
  status: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: unknown;
  sourceTraceId: string | null;
  datasetName: string;
}

/** `null` when the dataset does not exist. */
export async function getDataset(http: LangfuseHttp, name: string, signal?: AbortSignal): Promise<Dataset | null> {
  const res = await http.request<Record<string, unknown>>({
    method: 'GET',
    path: `/api/public/v2/datasets/${encodeURIComponent(name)}`,
    route: 'GET /api/public/v2/datasets/{name}',
    accept: [404],
    signal,
  });
  if (res.status === 404 || typeof res.data !== 'object' || res.data === null) return null;
  const d = res.data;
  return {
    id: String(d.id),
    name: String(d.name),
    description: typeof d.description === 'string' ? d.description : null,
    metadata: parseJsonLooking(d.metadata),
  };
}

export async function createDataset(
  http: LangfuseHttp,
  input: { name: string; description?: string; metadata?: unknown },
  signal?: AbortSignal,
): Promise<Dataset> {
  const res = await http.request<Record<string, unknown>>({
    method: 'POST',
    path: '/api/public/v2/datasets',
    route: 'POST /api/public/v2/datasets',
    body: input,
    signal,
  });
  const d = res.data ?? {};
  return {
    id: String(d.id),
    name: String(d.name ?? input.name),
    description: typeof d.description === 'string' ? d.description : null,
    metadata: d.metadata,
  };
}

/** Streams the dataset's items page by page; `activeOnly` (default) drops archived items. */
export async function* listDatasetItems(
  http: LangfuseHttp,
  datasetName: string,
  options: { activeOnly?: boolean; pageSize?: number; signal?: AbortSignal } = {},
): AsyncGenerator<DatasetItem> {
  const limit = options.pageSize ?? 100;
  for (let page = 1; ; page++) {
    const res = await http.request<{ data?: unknown[]; meta?: { totalPages?: number } }>({
      method: 'GET',
      path: '/api/public/dataset-items',
      route: 'GET /api/public/dataset-items',
      query: { datasetName, page, limit },
      signal: options.signal,
    });
    const rows = Array.isArray(res.data?.data) ? res.data.data : [];
    for (const row of rows) {
      const item = toItem(row, datasetName);
      if (!item) continue;
      if ((options.activeOnly ?? true) && item.status !== 'ACTIVE') continue;
      yield item;
    }
    const totalPages = res.data?.meta?.totalPages;
    if (rows.length < limit || (typeof totalPages === 'number' && page >= totalPages)) return;
  }
}

export interface DatasetItemWrite {
  datasetName: string;
  /** Items are upserted on their id (project-wide): the same id again updates the item. */
  id?: string;
  input: unknown;
  expectedOutput?: unknown;
  metadata?: unknown;
  sourceTraceId?: string;
  /** `ARCHIVED` keeps the item (and its run history) but out of runs. */
  status?: 'ACTIVE' | 'ARCHIVED';
}

export async function createDatasetItem(
  http: LangfuseHttp,
  input: DatasetItemWrite,
  signal?: AbortSignal,
): Promise<DatasetItem> {
  const res = await http.request<unknown>({
    method: 'POST',
    path: '/api/public/dataset-items',
    route: 'POST /api/public/dataset-items',
    body: input,
    signal,
  });
  const item = toItem(res.data, input.datasetName);
  if (!item) throw new Error('creating a dataset item returned no id');
  return item;
}

/** `null` when no item has that id. */
export async function getDatasetItem(
  http: LangfuseHttp,
  id: string,
  signal?: AbortSignal,
): Promise<DatasetItem | null> {
  const res = await http.request<unknown>({
    method: 'GET',
    path: `/api/public/dataset-items/${encodeURIComponent(id)}`,
    route: 'GET /api/public/dataset-items/{id}',
    accept: [404],
    signal,
  });
  return res.status === 404 ? null : toItem(res.data, '');
}

/** Names of every dataset of the project (all pages). */
export async function listDatasetNames(http: LangfuseHttp, signal?: AbortSignal): Promise<string[]> {
  const names: string[] = [];
  const limit = 100;
  for (let page = 1; ; page++) {
    const res = await http.request<{ data?: unknown[]; meta?: { totalPages?: number } }>({
      method: 'GET',
      path: '/api/public/v2/datasets',
      route: 'GET /api/public/v2/datasets',
      query: { page, limit },
      signal,
    });
    const rows = Array.isArray(res.data?.data) ? res.data.data : [];
    for (const row of rows) {
      const name = (row as { name?: unknown } | null)?.name;
      if (typeof name === 'string') names.push(name);
    }
    const totalPages = res.data?.meta?.totalPages;
    if (rows.length < limit || (typeof totalPages === 'number' && page >= totalPages)) return names;
  }
}

function toItem(raw: unknown, datasetName: string): DatasetItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string') return null;
  return {
    id: r.id,
    status: typeof r.status === 'string' ? r.status : 'ACTIVE',
    input: parseJsonLooking(r.input),
    expectedOutput: parseJsonLooking(r.expectedOutput),
    metadata: parseJsonLooking(r.metadata),
    sourceTraceId: typeof r.sourceTraceId === 'string' ? r.sourceTraceId : null,
    datasetName: typeof r.datasetName === 'string' ? r.datasetName : datasetName,
  };
}
