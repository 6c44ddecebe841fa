import { type ObservationRecord, type TraceRecord, globMatches } from '../langfuse/index.js';
import { evaluatePath, parsePath } from './path.js';

export interface FieldMapping {
  /** Observation name; `*` wildcards allowed. */
  observation?: string;
  /** Observation type (GENERATION, SPAN, RETRIEVER, ...), case-insensitive. */
  type?: string;
  /** Path into the observation (or the trace when neither name nor type is given): `output.answer`, `input.messages[-1].content`. */
  path: string;
}

/** Problems of an `online.extract` mapping, for start-up validation (empty when it is usable). */
export function mappingProblems(
  mapping: Partial<Record<'question' | 'answer' | 'contexts', FieldMapping | undefined>>,
): string[] {
  const problems: string[] = [];
  for (const [field, m] of Object.entries(mapping)) {
    if (!m) continue;
    try {
      parsePath(m.path);
    } catch (err) {
      problems.push(`config: online.extract.${field}.path: ${(err as Error).message}`);
    }
  }
  return problems;
}

export interface Mapped {
  values: unknown[];
  source: string;
  observationIds: string[];
}

/**
 * The values an explicit mapping points at, in observation order; `null` when nothing matched.
 * A path may start with `input`, `output` or `metadata` (of the observation or the trace).
 */
export function resolveMapped(trace: TraceRecord, mapping: FieldMapping): Mapped | null {
  let steps;
  try {
    steps = parsePath(mapping.path);
  } catch {
    return null;
  }
  const source = `mapping:${mapping.observation ?? mapping.type ?? 'trace'}.${mapping.path}`;
  if (!mapping.observation && !mapping.type) {
    const values = evaluatePath(
      { input: trace.input, output: trace.output, metadata: trace.metadata, name: trace.name },
      steps,
    );
    return values.length > 0 ? { values, source, observationIds: [] } : null;
  }
  const targets = trace.observations.filter((o) => matches(o, mapping));
  const values: unknown[] = [];
  const ids: string[] = [];
  for (const o of targets) {
    const found = evaluatePath(
      { input: o.input, output: o.output, metadata: o.metadata, name: o.name, type: o.type },
      steps,
    );
    if (found.length === 0) continue;
    values.push(...found);
    ids.push(o.id);
  }
  return values.length > 0 ? { values, source, observationIds: ids } : null;
}

function matches(o: ObservationRecord, m: FieldMapping): boolean {
  if (m.type && o.type.toUpperCase() !== m.type.toUpperCase()) return false;
  if (m.observation && (o.name === null || !globMatches(m.observation, o.name))) return false;
  return true;
}
