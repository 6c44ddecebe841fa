/**
 * Langfuse hands back the same data in different dresses: v1 reads parse JSON-looking strings, the v2
 * observations API returns input/output as raw strings. Everything is brought to parsed values here.
 */

/** Parses a string that looks like JSON (object, array or quoted string); anything else is returned unchanged. */
export function parseJsonLooking(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed.length < 2) return value;
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  const looksJson =
    (first === '{' && last === '}') || (first === '[' && last === ']') || (first === '"' && last === '"');
  if (!looksJson) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asStringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Environment as Langfuse reports it; traces of installs that never set one say `default`. */
export function environmentOf(value: unknown): string {
  return typeof value === 'string' && value.length > 0 ? value : 'default';
}

const CANONICAL = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `value` is already what toISOString would print for it (Langfuse's own format, on every trace,
 * observation and listed trace): no Date round trip needed. Out-of-range fields ("02-30", "24:00"), which
 * Date.parse rolls over, and 29 February, which depends on the year, take the slow path.
 */
function isCanonicalIso(value: string): boolean {
  const m = CANONICAL.exec(value);
  if (m === null) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= DAYS_IN_MONTH[month - 1]! &&
    !(month === 2 && day === 29) &&
    Number(m[3]) <= 23 &&
    Number(m[4]) <= 59 &&
    Number(m[5]) <= 59
  );
}

/** Normalises an API timestamp to ISO 8601 UTC; keeps the original text when it cannot be read. */
export function isoTimestamp(value: unknown): string {
  if (typeof value !== 'string') return new Date(0).toISOString();
  if (isCanonicalIso(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}
