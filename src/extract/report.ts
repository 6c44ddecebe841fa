import { traceNameKey } from '../internal/index.js';
import type { ObservationRecord, TraceRecord } from '../langfuse/index.js';
import { classify } from './observations.js';
import type { ExtractResult } from './types.js';
import { isObj, parsed } from './values.js';

/**
 * What `ragwatch extract --trace ID` shows: the extraction's outcome with the rule behind each part, and
 * the trace's observations as a map for writing an `online.extract` mapping (names, types, the shapes of
 * their input, output and metadata). Shapes carry keys and value kinds only, never the trace's text; trace and
 * observation names are their keys (`traceNameKey`), never a careless name's text.
 */

export interface ObservationSummary {
  id: string;
  parentId: string | null;
  depth: number;
  type: string;
  name: string | null;
  input: string;
  output: string;
  /** Metadata keys, with the keys of `metadata.attributes` (third-party spans) as `attributes.<key>`. */
  metadata: string[];
  /** What extraction made of it: a retrieval step, a generation, and which sample parts it gave. */
  roles: string[];
}

export interface ExtractReport {
  traceId: string;
  traceName: string | null;
  outcome: ExtractResult;
  observations: ObservationSummary[];
}

export function extractReport(trace: TraceRecord, outcome: ExtractResult): ExtractReport {
  const c = classify(trace.observations);
  const retrievals = new Set(c.retrievals.map((o) => o.id));
  const generations = new Set(c.generations.map((o) => o.id));
  const used = new Map<string, string[]>();
  if (outcome.ok) {
    for (const [part, found] of Object.entries(outcome.parts)) {
      for (const id of found.observationIds) used.set(id, [...(used.get(id) ?? []), part]);
    }
  }
  return {
    traceId: trace.id,
    traceName: traceNameKey(trace.name),
    outcome,
    observations: treeOrder(c.ordered).map((o) => ({
      id: o.id,
      parentId: o.parentObservationId,
      depth: c.depth.get(o.id) ?? 0,
      type: o.type,
      name: traceNameKey(o.name),
      input: valueShape(o.input),
      output: valueShape(o.output),
      metadata: metadataKeys(o),
      roles: [
        ...(retrievals.has(o.id) ? ['retrieval'] : []),
        ...(generations.has(o.id) ? ['generation'] : []),
        ...(used.get(o.id) ?? []).map((p) => `gave ${p}`),
      ],
    })),
  };
}

/** Depth first, children in start order under their parent (observations whose parent is missing are roots). */
function treeOrder(observations: ObservationRecord[]): ObservationRecord[] {
  const ids = new Set(observations.map((o) => o.id));
  const children = new Map<string | null, ObservationRecord[]>();
  for (const o of observations) {
    const parent = o.parentObservationId && ids.has(o.parentObservationId) ? o.parentObservationId : null;
    children.set(parent, [...(children.get(parent) ?? []), o]);
  }
  const out: ObservationRecord[] = [];
  const seen = new Set<string>();
  const byStart = (a: ObservationRecord, b: ObservationRecord) =>
    (Date.parse(a.startTime) || 0) - (Date.parse(b.startTime) || 0);
  const visit = (parent: string | null) => {
    for (const o of [...(children.get(parent) ?? [])].sort(byStart)) {
      if (seen.has(o.id)) continue;
      seen.add(o.id);
      out.push(o);
      visit(o.id);
    }
  };
  visit(null);
  // Parent cycles leave observations unreached: list them last rather than drop them.
  return [...out, ...observations.filter((o) => !seen.has(o.id))];
}

/** A value's structure: `s` string, `n` number, `b` boolean, `-` empty, `[…]` lists of item shapes, `{key:shape}` objects. */
export function valueShape(value: unknown, maxDepth = 2, depth = 0): string {
  const v = parsed(value);
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return 's';
  if (typeof v === 'number') return 'n';
  if (typeof v === 'boolean') return 'b';
  if (depth >= maxDepth) return Array.isArray(v) ? '[…]' : '{…}';
  if (Array.isArray(v)) return `[${[...new Set(v.map((x) => valueShape(x, maxDepth, depth + 1)))].sort().join(',')}]`;
  if (!isObj(v)) return '?';
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${k}:${valueShape(v[k], maxDepth, depth + 1)}`)
    .join(',')}}`;
}

function metadataKeys(o: ObservationRecord): string[] {
  const meta = parsed(o.metadata);
  if (!isObj(meta)) return [];
  const attributes = parsed(meta.attributes);
  const own = Object.keys(meta).filter((k) => k !== 'attributes' && k !== 'resourceAttributes' && k !== 'scope');
  const nested = isObj(attributes) ? Object.keys(attributes).map((k) => `attributes.${k}`) : [];
  return [...own, ...nested].sort();
}
