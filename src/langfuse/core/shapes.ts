import { z } from 'zod';
import { LangfuseApiError } from './http.js';

/**
 * The shapes of the Langfuse answers ragwatch acts on, as the public API (OpenAPI spec) defines them: every
 * field the read and write paths use is checked for its type, unknown fields pass. An answer that does not
 * fit is a protocol error (`LangfuseApiError`, kind `protocol`, retryable): never an empty page, never a
 * trace of some other id. Field groups the v2 observations API leaves out are optional here, as they are
 * on the wire. Messages name the field and the expectation, never a value (values may be trace text).
 */

const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected a date-time' });
const optionalString = z.string().nullish();
/** v3 traces: never null when present (older servers leave `environment` out: it reads as `default`). */
const v3Environment = z.string().optional();
const v3Tags = z.array(z.string()).optional();

const v3ListedTrace = z.looseObject({
  id: z.string().min(1),
  timestamp: dateTime,
  name: optionalString,
  environment: v3Environment,
  tags: v3Tags,
});
const v3Meta = z.looseObject({ page: z.int(), limit: z.int(), totalItems: z.int(), totalPages: z.int() });
const v3TracePage = z.looseObject({ data: z.array(v3ListedTrace), meta: v3Meta });

const v3Observation = z.looseObject({
  id: z.string().min(1),
  traceId: optionalString,
  type: z.string().optional(),
  name: optionalString,
  startTime: dateTime,
  parentObservationId: optionalString,
});
const v3Trace = z.looseObject({
  id: z.string().min(1),
  timestamp: dateTime,
  name: optionalString,
  environment: v3Environment,
  tags: v3Tags,
  observations: z.array(v3Observation),
});

const v4Row = z.looseObject({
  id: z.string().min(1),
  traceId: optionalString,
  startTime: dateTime,
  type: z.string().optional(),
  name: optionalString,
  traceName: optionalString,
  parentObservationId: optionalString,
  environment: optionalString,
  tags: z.array(z.string()).nullish(),
  isRootObservation: z.boolean().nullish(),
});
const v4Page = z.looseObject({ data: z.array(v4Row), meta: z.looseObject({ cursor: z.string().nullish() }) });

const ingestionStatus = z.looseObject({ id: z.string(), status: z.int() });
const ingestionResponse = z.looseObject({
  successes: z.array(ingestionStatus),
  errors: z.array(ingestionStatus.extend({ message: z.string().nullish() })),
});

const scoreConfigPage = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string(),
      dataType: z.string().optional(),
      isArchived: z.boolean().optional(),
    }),
  ),
  meta: v3Meta,
});

const scoreIdPage = z.looseObject({ data: z.array(z.looseObject({ id: z.string().min(1) })) });

type Row = Record<string, unknown>;
export type V3TracePage = { data: Row[]; meta: z.infer<typeof v3Meta> };
export type V4Page = { data: Row[]; meta: { cursor?: string | null } };
export type IngestionStatuses = z.infer<typeof ingestionResponse>;

/** The error every shape check throws: retryable (another tick may get a proper answer), never final. */
export function protocolError(route: string, status: number | undefined, detail: string): LangfuseApiError {
  return new LangfuseApiError(
    `${route}: the answer does not have the API's shape (${detail})`,
    route,
    'protocol',
    status,
    true,
    1,
  );
}

function check<T>(schema: z.ZodType<T>, body: unknown, route: string, status: number | undefined): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw protocolError(route, status, describeIssues(parsed.error));
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length === 0 ? 'body' : issue.path.map(String).join('.');
    return `${where}: ${issueText(issue)}`;
  });
  const more = error.issues.length > 3 ? `; ${error.issues.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'too_small') return 'must not be empty';
  if (issue.code === 'custom') return issue.message;
  return issue.code;
}

/** `GET /api/public/traces`: `{ data: Trace[], meta: { page, limit, totalItems, totalPages } }`. */
export function v3TracePageFrom(body: unknown, route: string, status?: number): V3TracePage {
  return check(v3TracePage, body, route, status) as V3TracePage;
}

/**
 * What a read budget may leave of an answer (`read-budget.ts`): once the trace's bytes are spent, array elements
 * and object members are dropped, so a member that comes late (v3's `observations`, a page's `meta`) or an
 * element's late members can be missing. Such an answer is checked for what it kept: elements missing what
 * the schema needs are left out, as the budget would have left them out whole.
 */
export interface ShapeOptions {
  /** The read budget cut this answer. */
  cut?: boolean;
}

const cutV3Trace = v3Trace.extend({ observations: z.array(z.unknown()).optional() });
const cutV4Page = z.looseObject({
  data: z.array(z.unknown()),
  meta: z.looseObject({ cursor: z.string().nullish() }).optional(),
});

/** `GET /api/public/traces/{id}`: a trace with its observations, and the one asked for. */
export function v3TraceFrom(
  body: unknown,
  id: string,
  route: string,
  status?: number,
  options: ShapeOptions = {},
): Row {
  const trace = options.cut
    ? keptOfCutTrace(check(cutV3Trace, body, route, status))
    : check(v3Trace, body, route, status);
  if (trace.id !== id) throw protocolError(route, status, 'id: another trace than the one asked for');
  const foreign = trace.observations.findIndex((o) => typeof o.traceId === 'string' && o.traceId !== id);
  if (foreign >= 0)
    throw protocolError(route, status, `observations.${foreign}.traceId: another trace than the one asked for`);
  return trace as Row;
}

function keptOfCutTrace<T extends { observations?: unknown[] }>(
  trace: T,
): Omit<T, 'observations'> & { observations: z.infer<typeof v3Observation>[] } {
  const observations = (trace.observations ?? []).flatMap((o) => {
    const parsed = v3Observation.safeParse(o);
    return parsed.success ? [parsed.data] : [];
  });
  return { ...trace, observations };
}

/** `GET /api/public/v2/observations`: `{ data: Observation[], meta: { cursor? } }`; with `traceId`, only that trace's. */
export function v4PageFrom(
  body: unknown,
  route: string,
  status?: number,
  traceId?: string,
  options: ShapeOptions = {},
): V4Page {
  const page = options.cut
    ? keptOfCutPage(check(cutV4Page, body, route, status))
    : (check(v4Page, body, route, status) as V4Page);
  if (traceId !== undefined) {
    const foreign = page.data.findIndex((row) => typeof row.traceId === 'string' && row.traceId !== traceId);
    if (foreign >= 0)
      throw protocolError(route, status, `data.${foreign}.traceId: another trace than the one asked for`);
  }
  return page;
}

function keptOfCutPage(page: z.infer<typeof cutV4Page>): V4Page {
  const data = page.data.flatMap((row) => {
    const parsed = v4Row.safeParse(row);
    return parsed.success ? [parsed.data as Row] : [];
  });
  return { data, meta: page.meta ?? {} };
}

/** `POST /api/public/ingestion` (207): `{ successes: [{ id, status }], errors: [{ id, status, message? }] }`. */
export function ingestionStatusesFrom(body: unknown, route: string, status?: number): IngestionStatuses {
  return check(ingestionResponse, body, route, status);
}

/** `GET /api/public/score-configs`: `{ data: ScoreConfig[], meta }`. */
export function scoreConfigPageFrom(
  body: unknown,
  route: string,
  status?: number,
): { data: Row[]; meta: z.infer<typeof v3Meta> } {
  return check(scoreConfigPage, body, route, status) as { data: Row[]; meta: z.infer<typeof v3Meta> };
}

/** `GET /api/public/v2/scores` (v3) and `GET /api/public/v3/scores` (v4): a page whose rows carry an `id`. */
export function scoreIdsFrom(body: unknown, route: string, status?: number): string[] {
  return check(scoreIdPage, body, route, status).data.map((row) => row.id);
}
