import type { ObservationRecord, TraceRecord } from '../../src/langfuse/types.js';
import { parseJsonLooking } from '../../src/langfuse/normalize.js';

/**
 * A trace's structure without its values: per observation its depth, type, name, the shape of its input
 * and output (keys and value kinds, three levels deep) and the keys of its metadata attributes. Two runs
 * of the same app give the same shape; a package upgrade that changes what it records does not.
 */
export function traceShape(trace: TraceRecord): string[] {
  const byId = new Map(trace.observations.map((o) => [o.id, o]));
  const depth = (o: ObservationRecord): number => {
    let d = 0;
    for (let p = o.parentObservationId ? byId.get(o.parentObservationId) : undefined; p && d < 50; p = p.parentObservationId ? byId.get(p.parentObservationId) : undefined) d++;
    return d;
  };
  const rows = trace.observations.map((o) => [depth(o), o.type, o.name ?? '', valueShape(o.input), valueShape(o.output), metadataKeys(o.metadata)].join(' | '));
  return [`trace | ${trace.name ?? ''} | ${valueShape(trace.input)} | ${valueShape(trace.output)}`, ...rows.sort()];
}

export function valueShape(value: unknown, depth = 0): string {
  const v = parseJsonLooking(value);
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return 's';
  if (typeof v === 'number') return 'n';
  if (typeof v === 'boolean') return 'b';
  if (depth >= 3) return Array.isArray(v) ? '[…]' : '{…}';
  if (Array.isArray(v)) return `[${[...new Set(v.map((x) => valueShape(x, depth + 1)))].sort().join(',')}]`;
  return `{${Object.keys(v as object).sort().map((k) => `${k}:${valueShape((v as Record<string, unknown>)[k], depth + 1)}`).join(',')}}`;
}

function metadataKeys(metadata: unknown): string {
  const meta = parseJsonLooking(metadata);
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return '';
  const attributes = parseJsonLooking((meta as Record<string, unknown>).attributes);
  const keys = attributes && typeof attributes === 'object' && !Array.isArray(attributes) ? Object.keys(attributes) : [];
  return keys.sort().join(',');
}
