import { HttpError } from './router.js';
import type { LangfuseStore } from './store.js';
import type { ObservationRecord } from './types.js';
import { isRootObservation } from './observation-v2.js';

/** The structured `filter` parameter of `GET /v2/observations`, evaluated in memory. */

interface Condition {
  type: string;
  column: string;
  operator: string;
  value?: unknown;
  key?: string;
}

type Getter = (o: ObservationRecord, store: LangfuseStore, key?: string) => unknown;

const trace = (o: ObservationRecord, store: LangfuseStore) =>
  o.traceId === null ? undefined : store.getTrace(o.traceId);

const COLUMNS: Record<string, Getter> = {
  id: (o) => o.id,
  type: (o) => o.type,
  name: (o) => o.name,
  traceId: (o) => o.traceId,
  startTime: (o) => o.startTime,
  endTime: (o) => o.endTime,
  environment: (o) => o.environment,
  level: (o) => o.level,
  statusMessage: (o) => o.statusMessage,
  version: (o) => o.version,
  userId: (o, s) => o.userId ?? trace(o, s)?.userId ?? null,
  sessionId: (o, s) => o.sessionId ?? trace(o, s)?.sessionId ?? null,
  isRootObservation: (o) => isRootObservation(o),
  parentObservationId: (o) => o.parentObservationId,
  traceName: (o, s) => trace(o, s)?.name ?? null,
  traceTags: (o, s) => trace(o, s)?.tags ?? [],
  tags: (o, s) => trace(o, s)?.tags ?? [],
  model: (o) => o.model,
  providedModelName: (o) => o.model,
  promptName: (o) => o.promptName,
  promptVersion: (o) => o.promptVersion,
  input: (o) => o.input,
  output: (o) => o.output,
  latency: (o) => (o.endTime === null ? null : (o.endTime - o.startTime) / 1000),
  timeToFirstToken: (o) => (o.completionStartTime === null ? null : (o.completionStartTime - o.startTime) / 1000),
  inputTokens: (o) => o.usageDetails.input ?? null,
  outputTokens: (o) => o.usageDetails.output ?? null,
  totalTokens: (o) => o.usageDetails.total ?? null,
  tokens: (o) => o.usageDetails.total ?? null,
  inputCost: (o) => o.costDetails.input ?? null,
  outputCost: (o) => o.costDetails.output ?? null,
  totalCost: (o) => o.costDetails.total ?? null,
  metadata: (o, _s, key) => (key === undefined ? o.metadata : o.metadata?.[key]),
};

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    default:
      throw new HttpError(400, `Invalid request data: unsupported operator "${op}"`);
  }
}

function stringMatch(actual: unknown, op: string, expected: string, caseInsensitive: boolean): boolean {
  if (actual === null || actual === undefined) return op === 'does not contain';
  const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
  const a = caseInsensitive ? text.toLowerCase() : text;
  const e = caseInsensitive ? expected.toLowerCase() : expected;
  switch (op) {
    case '=':
      return a === e;
    case 'contains':
    case 'matches':
      return a.includes(e);
    case 'does not contain':
      return !a.includes(e);
    case 'starts with':
      return a.startsWith(e);
    case 'ends with':
      return a.endsWith(e);
    default:
      throw new HttpError(400, `Invalid request data: unsupported operator "${op}"`);
  }
}

function evaluate(c: Condition, actual: unknown): boolean {
  switch (c.type) {
    case 'datetime':
      return typeof actual === 'number' && compare(actual, c.operator, Date.parse(String(c.value)));
    case 'number':
    case 'numberObject':
      return actual !== null && actual !== undefined && compare(Number(actual), c.operator, Number(c.value));
    case 'string':
    case 'stringObject':
      return stringMatch(actual, c.operator, String(c.value ?? ''), c.operator === 'matches' && c.type === 'string');
    case 'boolean':
      return c.operator === '<>' ? actual !== c.value : actual === c.value;
    case 'null':
      return c.operator === 'is null'
        ? actual === null || actual === undefined
        : actual !== null && actual !== undefined;
    case 'stringOptions':
    case 'categoryOptions': {
      const options = Array.isArray(c.value) ? c.value.map(String) : [];
      const hit = options.includes(String(actual));
      return c.operator === 'none of' ? !hit : hit;
    }
    case 'arrayOptions': {
      const options = Array.isArray(c.value) ? c.value.map(String) : [];
      const values = Array.isArray(actual) ? actual.map(String) : [];
      if (c.operator === 'all of') return options.every((v) => values.includes(v));
      const any = options.some((v) => values.includes(v));
      return c.operator === 'none of' ? !any : any;
    }
    default:
      throw new HttpError(400, `Invalid request data: unsupported filter type "${c.type}"`);
  }
}

export function compileObservationFilter(raw: string, store: LangfuseStore): (o: ObservationRecord) => boolean {
  let conditions: unknown;
  try {
    conditions = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'Invalid request data: filter must be a JSON array');
  }
  if (!Array.isArray(conditions)) throw new HttpError(400, 'Invalid request data: filter must be a JSON array');
  const compiled = conditions.map((c: Partial<Condition>) => {
    if (typeof c?.column !== 'string' || typeof c.type !== 'string' || typeof c.operator !== 'string') {
      throw new HttpError(400, 'Invalid request data: each filter needs type, column and operator');
    }
    const getter = COLUMNS[c.column];
    if (!getter) throw new HttpError(400, `Invalid request data: unknown filter column "${c.column}"`);
    return { condition: c as Condition, getter };
  });
  return (o) => compiled.every(({ condition, getter }) => evaluate(condition, getter(o, store, condition.key)));
}
