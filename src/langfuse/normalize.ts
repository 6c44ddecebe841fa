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
  const looksJson = (first === '{' && last === '}') || (first === '[' && last === ']') || (first === '"' && last === '"');
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

/** Normalises an API timestamp to ISO 8601 UTC; keeps the original text when it cannot be read. */
export function isoTimestamp(value: unknown): string {
  if (typeof value !== 'string') return new Date(0).toISOString();
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}
