import { HttpError } from './router.js';

/** Query-string readers that answer 400 the way Langfuse's zod query schemas do. */

export function optionalString(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

export function stringList(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name).filter((v) => v !== '');
  return values.length > 0 ? values : undefined;
}

export function commaList(query: URLSearchParams, name: string): string[] | undefined {
  const value = optionalString(query, name);
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return parts.length > 0 ? parts : undefined;
}

export function integer(
  query: URLSearchParams,
  name: string,
  options: { default: number; min?: number; max?: number },
): number {
  const raw = optionalString(query, name);
  if (raw === undefined) return options.default;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new HttpError(400, `Invalid request data: ${name} must be an integer`);
  if (options.min !== undefined && value < options.min) {
    throw new HttpError(400, `Invalid request data: ${name} must be greater than or equal to ${options.min}`);
  }
  if (options.max !== undefined && value > options.max) {
    throw new HttpError(400, `Invalid request data: ${name} must be less than or equal to ${options.max}`);
  }
  return value;
}

export function dateTime(query: URLSearchParams, name: string): number | undefined {
  const raw = optionalString(query, name);
  if (raw === undefined) return undefined;
  // Langfuse requires ISO 8601 with an offset (z.iso.datetime({ offset: true })).
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(raw)) {
    throw new HttpError(400, `Invalid request data: ${name} must be an ISO 8601 datetime with offset`);
  }
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new HttpError(400, `Invalid request data: ${name} is not a valid datetime`);
  return ms;
}

export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = optionalString(query, name);
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new HttpError(400, `Invalid request data: ${name} must be true or false`);
}

export interface PageMeta {
  page: number;
  limit: number;
  totalItems: number;
  totalPages: number;
}

export function paginate<T>(items: readonly T[], page: number, limit: number): { data: T[]; meta: PageMeta } {
  const start = (page - 1) * limit;
  return {
    data: limit === 0 ? [] : items.slice(start, start + limit),
    meta: { page, limit, totalItems: items.length, totalPages: limit === 0 ? 0 : Math.ceil(items.length / limit) },
  };
}

export function pageParams(query: URLSearchParams, maxLimit?: number): { page: number; limit: number } {
  return {
    page: integer(query, 'page', { default: 1, min: 1 }),
    limit: integer(query, 'limit', { default: 50, min: 0, ...(maxLimit !== undefined ? { max: maxLimit } : {}) }),
  };
}

export function encodeCursor(value: unknown, urlSafe = false): string {
  return Buffer.from(JSON.stringify(value)).toString(urlSafe ? 'base64url' : 'base64');
}

export function decodeCursor(raw: string, urlSafe = false): unknown {
  try {
    return JSON.parse(Buffer.from(raw, urlSafe ? 'base64url' : 'base64').toString('utf8'));
  } catch {
    throw new HttpError(400, 'Invalid cursor format');
  }
}
