import { filterVerdict, needsMetadata, serverSideEnvironments, type TraceFilters } from '../core/filters.js';
import type { LangfuseHttp, LangfuseRequest } from '../core/http.js';
import { fieldCappedReader, type TraceReadBudget } from '../core/read-budget.js';
import { asString, asStringArray, environmentOf, isoTimestamp, parseJsonLooking } from '../core/normalize.js';
import { v3TraceFrom, v3TracePageFrom } from '../core/shapes.js';
import type { ObservationRecord, TraceRecord, TraceSummary } from '../core/types.js';

/** Langfuse v3 read path: `GET /api/public/traces` and `GET /api/public/traces/{id}`. */

export const V3_MAX_PAGE_SIZE = 100;

export interface ListWindow {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  filters: TraceFilters;
  pageSize?: number;
  signal?: AbortSignal;
  /** Cap on each string of a page (metadata and IO fetched for filters); no row is ever dropped. */
  maxFieldBytes?: number;
  /** Told of each trace the filters took but for an excluded tag (`excludeTags`), so it can be counted. */
  onExcluded?: ExcludedListener;
}

export type ExcludedListener = (trace: TraceSummary, reason: 'excluded_tag') => void;

/** Whether the listing yields `summary`; tells `onExcluded` of a trace only an excluded tag drops. */
export function takeListed(summary: TraceSummary, window: Pick<ListWindow, 'filters' | 'onExcluded'>): boolean {
  const verdict = filterVerdict(summary, window.filters);
  if (verdict === 'excluded_tag') window.onExcluded?.(summary, verdict);
  return verdict === 'match';
}

/** The request options that read a listing page under the window's field cap. */
export function pageReader(window: Pick<ListWindow, 'maxFieldBytes'>): Pick<LangfuseRequest, 'readBody'> {
  return window.maxFieldBytes === undefined ? {} : { readBody: fieldCappedReader(window.maxFieldBytes) };
}

/** The request options that read a trace's body under its budget. */
export function budgetReader(budget: TraceReadBudget | undefined): Pick<LangfuseRequest, 'readBody'> {
  return budget === undefined ? {} : { readBody: (body) => budget.read(body) };
}

/** The record, with what its budget cut when it cut anything. */
export function withReadCut(record: TraceRecord, budget: TraceReadBudget | undefined): TraceRecord {
  const cut = budget?.cut();
  if (cut) record.readCut = cut;
  return record;
}

/** Streams the traces of a window page by page (oldest first); only one page is held at a time. */
export async function* listTracesV3(http: LangfuseHttp, window: ListWindow): AsyncGenerator<TraceSummary> {
  const limit = Math.min(V3_MAX_PAGE_SIZE, Math.max(1, window.pageSize ?? V3_MAX_PAGE_SIZE));
  const { filters } = window;
  const withMetadata = needsMetadata(filters);
  for (let page = 1; ; page++) {
    const route = 'GET /api/public/traces';
    const res = await http.request({
      method: 'GET',
      path: '/api/public/traces',
      route,
      signal: window.signal,
      ...pageReader(window),
      query: {
        page,
        limit,
        // `io` carries metadata in v3; it is only worth its weight when metadata filters need it.
        fields: withMetadata ? 'core,io' : 'core',
        fromTimestamp: window.from.toISOString(),
        toTimestamp: window.to.toISOString(),
        orderBy: 'timestamp.asc',
        name: filters.traceNames.length === 1 ? filters.traceNames[0] : undefined,
        tags: filters.tags.length > 0 ? filters.tags : undefined,
        environment: serverSideEnvironments(filters),
      },
    });
    const { data: rows, meta } = v3TracePageFrom(res.data, route, res.status);
    for (const row of rows) {
      const summary = summaryFromV3(row, withMetadata);
      if (summary && takeListed(summary, window)) yield summary;
    }
    if (rows.length === 0 || rows.length < limit || page >= meta.totalPages) return;
  }
}

function summaryFromV3(row: Record<string, unknown>, withMetadata: boolean): TraceSummary | null {
  const id = asString(row.id);
  if (!id) return null;
  const summary: TraceSummary = {
    id,
    name: asString(row.name),
    timestamp: isoTimestamp(row.timestamp),
    environment: environmentOf(row.environment),
    tags: asStringArray(row.tags),
  };
  if (withMetadata) summary.metadata = parseJsonLooking(row.metadata);
  return summary;
}

/** The full trace with its observations, read within `budget` if given; `null` if the server does not know it (yet). */
export async function getTraceV3(
  http: LangfuseHttp,
  id: string,
  signal?: AbortSignal,
  budget?: TraceReadBudget,
): Promise<TraceRecord | null> {
  const route = 'GET /api/public/traces/{id}';
  const path = `/api/public/traces/${encodeURIComponent(id)}`;
  const res = await http.request({ method: 'GET', path, route, accept: [404], signal, ...budgetReader(budget) });
  if (res.status === 404) return null;
  const checked = v3TraceFrom(res.data, id, route, res.status, { cut: budget?.cut() != null });
  return withReadCut(traceFromV3(checked, id), budget);
}

/** Whether the server shows the trace (it does not while Langfuse is still ingesting it). */
export async function traceExists(http: LangfuseHttp, id: string, signal?: AbortSignal): Promise<boolean> {
  const res = await http.request<unknown>({
    method: 'GET',
    path: `/api/public/traces/${encodeURIComponent(id)}`,
    route: 'GET /api/public/traces/{id}',
    accept: [404],
    signal,
  });
  return res.status !== 404;
}

/** A `GET /api/public/traces/{id}` body as a normalised trace record. */
export function traceFromV3(row: Record<string, unknown>, id = String(row.id)): TraceRecord {
  const observations = Array.isArray(row.observations) ? (row.observations as unknown[]) : [];
  return {
    id: asString(row.id) ?? id,
    name: asString(row.name),
    timestamp: isoTimestamp(row.timestamp),
    environment: environmentOf(row.environment),
    input: parseJsonLooking(row.input),
    output: parseJsonLooking(row.output),
    metadata: parseJsonLooking(row.metadata),
    tags: asStringArray(row.tags),
    observations: sortByStartTime(observations.flatMap((o) => observationRecord(o) ?? [])),
  };
}

export function observationRecord(raw: unknown): ObservationRecord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const id = asString(o.id);
  if (!id) return null;
  return {
    id,
    parentObservationId: asString(o.parentObservationId),
    type: (asString(o.type) ?? 'SPAN').toUpperCase(),
    name: asString(o.name),
    startTime: isoTimestamp(o.startTime),
    input: parseJsonLooking(o.input),
    output: parseJsonLooking(o.output),
    metadata: parseJsonLooking(o.metadata),
  };
}

/** Stable sort by start time: ties keep the order the server gave. */
export function sortByStartTime<T extends { startTime: string }>(items: T[]): T[] {
  return items
    .map((item, index) => ({ item, index, t: Date.parse(item.startTime) }))
    .sort((a, b) => (Number.isNaN(a.t) || Number.isNaN(b.t) || a.t === b.t ? a.index - b.index : a.t - b.t))
    .map((x) => x.item);
}
