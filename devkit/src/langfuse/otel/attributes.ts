/** OTLP/JSON value decoding, following Langfuse's OtelIngestionProcessor. */

export type Attributes = Record<string, unknown>;

interface KeyValue {
  key?: unknown;
  value?: Record<string, unknown> | null;
}

function convertInt(intValue: unknown): number | undefined {
  if (typeof intValue === 'number') return intValue;
  if (typeof intValue === 'string') {
    const parsed = Number(intValue);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  if (intValue && typeof intValue === 'object') {
    const { high, low } = intValue as { high?: number; low?: number };
    if (typeof high === 'number' && typeof low === 'number') return high === 0 ? low : high * 2 ** 32 + (low >>> 0);
  }
  return undefined;
}

export function convertValue(value: Record<string, unknown> | null | undefined): unknown {
  if (!value) return JSON.stringify(value ?? {});
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.doubleValue !== undefined) {
    if (typeof value.doubleValue === 'string') {
      const parsed = Number(value.doubleValue);
      return Number.isFinite(parsed) ? parsed : value.doubleValue;
    }
    return value.doubleValue;
  }
  if (value.boolValue !== undefined) return value.boolValue;
  const arrayValue = value.arrayValue as { values?: Record<string, unknown>[] } | undefined;
  if (arrayValue && arrayValue.values !== undefined) return arrayValue.values.map((v) => convertValue(v));
  if (value.intValue !== undefined) {
    const parsed = convertInt(value.intValue);
    if (parsed !== undefined) return parsed;
  }
  return JSON.stringify(value);
}

export function toAttributes(list: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list as KeyValue[]) {
    if (typeof kv?.key === 'string') out[kv.key] = convertValue(kv.value ?? undefined);
  }
  return out;
}

/** JS exporters send hex strings; protobuf-decoded or Python payloads may carry byte arrays. */
export function parseId(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object' && 'data' in data) return parseId((data as { data: unknown }).data);
  if (Array.isArray(data) || data instanceof Uint8Array) return Buffer.from(data as number[]).toString('hex');
  throw new Error('span id is neither a string nor a byte array');
}

/** Nanosecond timestamps (decimal string, number, or {high, low}) to epoch milliseconds. */
export function nanosToMillis(value: unknown): number | undefined {
  try {
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string') {
      if (value.trim() === '') return undefined;
      return Number(BigInt(value) / 1_000_000n);
    }
    if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(value / 1e6) : undefined;
    const { high, low } = value as { high?: number; low?: number };
    if (typeof high !== 'number' || typeof low !== 'number') return undefined;
    return Number(((BigInt(high) << 32n) | BigInt(low >>> 0)) / 1_000_000n);
  } catch {
    return undefined;
  }
}

export function parseJson(payload: unknown): unknown {
  if (payload && typeof payload === 'object') return payload;
  if (typeof payload === 'string') {
    try {
      return JSON.parse(payload);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
