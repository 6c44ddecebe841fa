import { needsMetadata, serverSideEnvironments } from '../core/filters.js';
import type { LangfuseHttp } from '../core/http.js';
import { asString, asStringArray, environmentOf, isoTimestamp, parseJsonLooking } from '../core/normalize.js';
import type { TraceReadBudget } from '../core/read-budget.js';
import { v4PageFrom } from '../core/shapes.js';
import {
  budgetReader,
  observationRecord,
  pageReader,
  sortByStartTime,
  takeListed,
  withReadCut,
  type ListWindow,
} from './traces.js';
import type { TraceRecord, TraceSummary } from '../core/types.js';

/** Langfuse v4 read path: `GET /api/public/v2/observations` (cursor paging, field groups, raw-string IO). */

export const V4_MAX_PAGE_SIZE = 1000;
/** Trace ids remembered to drop a trace's second logical root (app roots); bounded so memory stays flat. */
const RECENT_IDS_CAP = 20_000;

/** Streams one summary per trace whose root observation starts in the window; one page held at a time. */
export async function* listTracesV4(http: LangfuseHttp, window: ListWindow): AsyncGenerator<TraceSummary> {
  const limit = Math.min(V4_MAX_PAGE_SIZE, Math.max(1, window.pageSize ?? V4_MAX_PAGE_SIZE));
  const { filters } = window;
  const withMetadata = needsMetadata(filters);
  let recent = new Set<string>();
  let cursor: string | undefined;
  do {
    const route = 'GET /api/public/v2/observations';
    const res = await http.request({
      method: 'GET',
      path: '/api/public/v2/observations',
      route,
      signal: window.signal,
      ...pageReader(window),
      query: {
        isRootObservation: true,
        limit,
        fields: withMetadata ? 'core,basic,trace_context,metadata' : 'core,basic,trace_context',
        fromStartTime: window.from.toISOString(),
        toStartTime: window.to.toISOString(),
        environment: serverSideEnvironments(filters),
        cursor,
      },
    });
    const { data: rows, meta } = v4PageFrom(res.data, route, res.status);
    for (const row of rows) {
      const summary = summaryFromRoot(row, withMetadata);
      if (!summary || recent.has(summary.id)) continue;
      if (recent.size >= RECENT_IDS_CAP) recent = new Set();
      recent.add(summary.id);
      if (takeListed(summary, window)) yield summary;
    }
    const next = meta.cursor;
    cursor = typeof next === 'string' && next.length > 0 && rows.length > 0 ? next : undefined;
  } while (cursor !== undefined);
}

function summaryFromRoot(row: Record<string, unknown>, withMetadata: boolean): TraceSummary | null {
  const id = asString(row.traceId);
  if (!id) return null;
  const summary: TraceSummary = {
    id,
    name: asString(row.traceName) ?? asString(row.name),
    timestamp: isoTimestamp(row.startTime),
    environment: environmentOf(row.environment),
    tags: asStringArray(row.tags),
  };
  if (withMetadata) summary.metadata = parseJsonLooking(row.metadata);
  return summary;
}

/** The field groups of a trace's observations that extraction reads. */
export const V4_TRACE_FIELDS = 'core,basic,io,metadata,trace_context';
/**
 * Metadata keys read in full: v4 cuts every metadata value to 200 characters unless named here, and spans
 * of non-Langfuse instrumentations keep their attributes (retrieved documents among them) under `attributes`.
 */
export const V4_EXPANDED_METADATA = 'attributes';

/**
 * Every observation of a trace, assembled into a trace record; `null` when none is visible (yet). With a budget,
 * the pages share it, and pages after it is spent are not fetched.
 */
export async function getTraceV4(
  http: LangfuseHttp,
  id: string,
  signal?: AbortSignal,
  budget?: TraceReadBudget,
): Promise<TraceRecord | null> {
  const rows: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  do {
    const route = 'GET /api/public/v2/observations?traceId';
    const res = await http.request({
      method: 'GET',
      path: '/api/public/v2/observations',
      route,
      signal,
      ...budgetReader(budget),
      query: {
        traceId: id,
        limit: V4_MAX_PAGE_SIZE,
        fields: V4_TRACE_FIELDS,
        expandMetadata: V4_EXPANDED_METADATA,
        cursor,
      },
    });
    const { data: page, meta } = v4PageFrom(res.data, route, res.status, id, { cut: budget?.cut() != null });
    rows.push(...page);
    const next = meta.cursor;
    cursor = typeof next === 'string' && next.length > 0 && page.length > 0 ? next : undefined;
    if (cursor !== undefined && budget?.exhausted) {
      budget.leftUnread();
      cursor = undefined;
    }
  } while (cursor !== undefined);
  const record = traceFromObservationsV2(id, rows);
  return record && withReadCut(record, budget);
}

/** The observations of one trace (v2 API rows, raw-string IO) as a normalised trace record; `null` when none. */
export function traceFromObservationsV2(id: string, rows: Array<Record<string, unknown>>): TraceRecord | null {
  const own = rows.filter((r) => r.traceId === undefined || r.traceId === null || r.traceId === id);
  if (own.length === 0) return null;

  const observations = sortByStartTime(own.flatMap((o) => observationRecord(o) ?? []));
  const root = pickRoot(own);
  return {
    id,
    name: asString(root.traceName) ?? asString(root.name),
    timestamp: isoTimestamp(root.startTime),
    environment: environmentOf(root.environment),
    input: parseJsonLooking(root.input),
    output: parseJsonLooking(root.output),
    metadata: parseJsonLooking(root.metadata),
    tags: asStringArray(root.tags),
    observations,
  };
}

/** The trace's logical root: a physical root marked as such first, then any marked root, then the earliest parentless one. */
function pickRoot(rows: Array<Record<string, unknown>>): Record<string, unknown> {
  const byStart = sortByStartTime(rows.map((r) => ({ r, startTime: isoTimestamp(r.startTime) }))).map((x) => x.r);
  return (
    byStart.find((r) => r.isRootObservation === true && !r.parentObservationId) ??
    byStart.find((r) => r.isRootObservation === true) ??
    byStart.find((r) => !r.parentObservationId) ??
    (byStart[0] as Record<string, unknown>)
  );
}
