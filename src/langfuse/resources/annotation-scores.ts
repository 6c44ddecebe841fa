import type { LangfuseHttp } from '../core/http.js';
import { allPages, PAGE, protocolError, record, str } from './annotation-queues.js';
import type { ApiGeneration } from '../core/types.js';

/**
 * Scores people left in annotation queues, read back (source `ANNOTATION`), and scores written with that source
 * (what a reviewer's click records: to prefill a review or to script a reviewer).
 */

/** One score as people left it in the Langfuse UI (or as an API client prefilled it for them). */
export interface AnnotationScore {
  id: string;
  name: string;
  traceId: string | null;
  observationId: string | null;
  /** NUMERIC and BOOLEAN values, and the category's number for CATEGORICAL. */
  value: number | null;
  /** CATEGORICAL label, TEXT content, `True`/`False`. */
  stringValue: string | null;
  dataType: string;
  source: string;
  comment: string | null;
  queueId: string | null;
  configId: string | null;
  authorUserId: string | null;
  /** ISO 8601. */
  timestamp: string;
  /** The score's metadata (ragwatch's own scores carry metric, prompt version, run, stratum, split). */
  metadata: Record<string, unknown> | null;
}

export interface AnnotationScoreFilter {
  queueId?: string;
  /** Score names; all when absent. */
  names?: readonly string[];
  /** Default `ANNOTATION`. */
  source?: 'ANNOTATION' | 'API' | 'EVAL';
  /** Score timestamps from (inclusive) and to (exclusive), ISO 8601. */
  from?: string;
  to?: string;
  signal?: AbortSignal;
}

function toScore(raw: unknown, route: string, v3: boolean): AnnotationScore {
  const r = record(raw);
  if (!r || typeof r.id !== 'string' || typeof r.name !== 'string')
    throw protocolError(route, 'a score without id or name');
  const dataType = str(r.dataType) ?? 'NUMERIC';
  let value: number | null = typeof r.value === 'number' ? r.value : null;
  let stringValue = str(r.stringValue);
  let traceId = str(r.traceId);
  let observationId = str(r.observationId);
  if (v3) {
    // v3 carries one polymorphic `value` and the subject the score is attached to.
    if (typeof r.value === 'boolean') value = r.value ? 1 : 0;
    if (typeof r.value === 'string') stringValue = r.value;
    const subject = record(r.subject);
    if (subject?.kind === 'trace') traceId = str(subject.id);
    if (subject?.kind === 'observation') {
      observationId = str(subject.id);
      traceId = str(subject.traceId);
    }
  }
  return {
    id: r.id,
    name: r.name,
    traceId,
    observationId,
    value,
    stringValue,
    dataType,
    source: str(r.source) ?? 'API',
    comment: str(r.comment),
    queueId: str(r.queueId),
    configId: str(r.configId),
    authorUserId: str(r.authorUserId),
    timestamp: str(r.timestamp) ?? '',
    metadata: record(r.metadata),
  };
}

/**
 * Scores of a queue (people's annotations by default), newest first. Langfuse v3 serves them at
 * `GET /api/public/v2/scores`, v4 at `GET /api/public/v3/scores` (cursor paging, field groups).
 */
export async function listAnnotationScores(
  http: LangfuseHttp,
  generation: ApiGeneration,
  filter: AnnotationScoreFilter = {},
): Promise<AnnotationScore[]> {
  const source = filter.source ?? 'ANNOTATION';
  const names = filter.names ? new Set(filter.names) : null;
  const keep = (s: AnnotationScore) => !names || names.has(s.name);
  if (generation === 'v3') {
    const route = 'GET /api/public/v2/scores';
    // v2 filters one name at a time: one listing per name, or the queue's scores with the names kept locally.
    const perName = names && (names.size <= 8 || !filter.queueId) ? [...names] : [undefined];
    const out: AnnotationScore[] = [];
    for (const name of perName) {
      const query = { source, queueId: filter.queueId, name, fromTimestamp: filter.from, toTimestamp: filter.to };
      const rows = await allPages(http, '/api/public/v2/scores', route, query, filter.signal);
      out.push(...rows.map((s) => toScore(s, route, false)).filter(keep));
    }
    return out;
  }
  const route = 'GET /api/public/v3/scores';
  const out: AnnotationScore[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await http.request<{ data?: unknown; meta?: { cursor?: unknown } }>({
      method: 'GET',
      path: '/api/public/v3/scores',
      route,
      query: {
        limit: PAGE,
        cursor,
        fields: 'details,subject,annotation',
        source,
        queueId: filter.queueId,
        name: names ? [...names].join(',') : undefined,
        fromTimestamp: filter.from,
        toTimestamp: filter.to,
      },
      signal: filter.signal,
    });
    const rows = res.data?.data;
    if (!Array.isArray(rows)) throw protocolError(route, 'a page without a data array');
    out.push(...rows.map((s) => toScore(s, route, true)).filter(keep));
    const next = res.data?.meta?.cursor;
    if (typeof next !== 'string' || next === '' || rows.length === 0) return out;
    cursor = next;
  }
}

/**
 * Writes a score with source `ANNOTATION` in a queue (`POST /api/public/scores`): what a reviewer's click in
 * the UI records, used to prefill a review or to script a reviewer. The config id is required.
 */
export async function createAnnotationScore(
  http: LangfuseHttp,
  input: {
    id?: string;
    traceId: string;
    name: string;
    value: number | string;
    configId: string;
    queueId?: string;
    comment?: string;
    environment?: string;
    metadata?: Record<string, unknown>;
  },
  signal?: AbortSignal,
): Promise<string> {
  const route = 'POST /api/public/scores';
  const res = await http.request<unknown>({
    method: 'POST',
    path: '/api/public/scores',
    route,
    body: { ...input, source: 'ANNOTATION' },
    signal,
  });
  const id = record(res.data)?.id;
  if (typeof id !== 'string') throw protocolError(route, 'no score id in the answer');
  return id;
}
