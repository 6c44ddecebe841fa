import type { ObservationRecord, TraceRecord } from '../../src/langfuse/core/types.js';
import { parseJsonLooking } from '../../src/langfuse/core/normalize.js';
import { valueShape } from '../../src/extract/report.js';

/**
 * A trace's structure without its values: per observation its depth, type, name, the shape of its input
 * and output (keys and value kinds, three levels deep) and the keys of its metadata attributes. Two runs
 * of the same app give the same shape; a package upgrade that changes what it records does not.
 */
export function traceShape(trace: TraceRecord): string[] {
  const byId = new Map(trace.observations.map((o) => [o.id, o]));
  const depth = (o: ObservationRecord): number => {
    let d = 0;
    for (
      let p = o.parentObservationId ? byId.get(o.parentObservationId) : undefined;
      p && d < 50;
      p = p.parentObservationId ? byId.get(p.parentObservationId) : undefined
    )
      d++;
    return d;
  };
  const rows = trace.observations.map((o) =>
    [depth(o), o.type, o.name ?? '', valueShape(o.input, 3), valueShape(o.output, 3), metadataKeys(o.metadata)].join(
      ' | ',
    ),
  );
  return [
    `trace | ${trace.name ?? ''} | ${valueShape(trace.input, 3)} | ${valueShape(trace.output, 3)}`,
    ...rows.sort(),
  ];
}

function metadataKeys(metadata: unknown): string {
  const meta = parseJsonLooking(metadata);
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return '';
  const attributes = parseJsonLooking((meta as Record<string, unknown>).attributes);
  const keys =
    attributes && typeof attributes === 'object' && !Array.isArray(attributes) ? Object.keys(attributes) : [];
  return keys.sort().join(',');
}
