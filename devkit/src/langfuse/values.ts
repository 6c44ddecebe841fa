/** Small value conversions shared by the store, the ingestion path and the response views. */

/** Langfuse keeps input/output as text: strings as sent, anything else as JSON. */
export function toRaw(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Langfuse's v1 read path parses stored text back to JSON when it can, else returns the string. */
export function parseRaw(raw: string | null): unknown {
  if (raw === null) return null;
  const trimmed = raw.trimStart();
  const first = trimmed[0];
  if (first === '{' || first === '[' || first === '"' || /^-?\d/.test(trimmed) || /^(true|false|null)$/.test(trimmed)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

export function toMillis(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Metadata as Langfuse stores it: an object; a non-object value is wrapped so nothing is lost. */
export function toMetadata(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (isPlainObject(value)) return value;
  return { metadata: value };
}

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Langfuse's public environment rule: lowercase, no `langfuse` prefix, [a-z0-9-_], ≤ 40 chars, else `default`. */
export function normalizeEnvironment(value: unknown): string {
  if (typeof value !== 'string') return 'default';
  const stripped = value
    .toLowerCase()
    .replace(/^(?:langfuse[-_]?)+/, '')
    .slice(0, 40);
  return stripped && /^[a-z0-9-_]+$/.test(stripped) ? stripped : 'default';
}
