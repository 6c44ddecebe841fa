/**
 * Reading a run's scores back. Langfuse answers an ingestion batch (207) before its worker validates the scores in
 * it and drops, silently, those that fail; a score ragwatch counted as written may never exist. After a run, a
 * sample of the traces it scored is read back; a score that does not appear within the bound is unconfirmed and
 * its trace is evaluated again (score ids are deterministic: a rewrite replaces, never duplicates).
 */
import { samplingPoint } from '../random.js';

export interface ReadBackSettings {
  /** Traces of a run whose scores are read back; 0 reads none. */
  sample: number;
  /** How long a score may take to appear before it counts as unconfirmed. */
  withinSeconds: number;
}

/** A trace the run scored, and the ids of the scores Langfuse acknowledged for it. */
export interface WrittenTrace {
  traceId: string;
  scoreIds: readonly string[];
}

export type ReadBackResult =
  /** `checked` scores read back; `missing`: the traces with a score that did not appear, and those scores. */
  | { kind: 'read'; checked: number; missing: WrittenTrace[] }
  /** Reading failed (Langfuse's read path): nothing is known, nothing is counted. */
  | { kind: 'unread'; error: unknown };

export interface ReadBackDeps {
  /** Which of the ids Langfuse serves now. */
  present(ids: readonly string[], signal: AbortSignal): Promise<Set<string>>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const SAMPLE_SALT = 'ragwatch-read-back-v1';
const FIRST_WAIT_MS = 1000;

/**
 * The traces read back: the `size` with the lowest read-back coordinate of their id (a hash, not the sampling
 * one), so the sample is spread over the run, the same whoever computes it, and costs no randomness.
 */
export function readBackSample(written: readonly WrittenTrace[], size: number): WrittenTrace[] {
  if (size <= 0) return [];
  if (written.length <= size) return [...written];
  return [...written]
    .map((w) => ({ w, at: samplingPoint(w.traceId, SAMPLE_SALT) }))
    .sort((a, b) => a.at - b.at)
    .slice(0, size)
    .map(({ w }) => w);
}

/** The waits between looks: doubling from a second, the last one cut so that they add up to the bound. */
export function readBackWaits(withinSeconds: number): number[] {
  const bound = withinSeconds * 1000;
  const waits: number[] = [];
  let total = 0;
  for (let wait = FIRST_WAIT_MS; total < bound; wait *= 2) {
    const next = Math.min(wait, bound - total);
    waits.push(next);
    total += next;
  }
  return waits;
}

/**
 * Looks at once, then again after each wait for what is still missing, until everything appeared or the bound is
 * spent. Stops early (reporting what it knows so far as not missing) when `signal` aborts.
 */
export async function readBack(
  written: readonly WrittenTrace[],
  settings: ReadBackSettings,
  deps: ReadBackDeps,
  signal: AbortSignal,
): Promise<ReadBackResult> {
  const sample = readBackSample(
    written.filter((w) => w.scoreIds.length > 0),
    settings.sample,
  );
  const missing = new Set(sample.flatMap((w) => w.scoreIds));
  const checked = missing.size;
  const waits = readBackWaits(settings.withinSeconds);
  try {
    for (let look = 0; missing.size > 0; look++) {
      for (const id of await deps.present([...missing], signal)) missing.delete(id);
      const wait = waits[look];
      if (missing.size === 0 || wait === undefined) break;
      await deps.sleep(wait, signal);
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'read', checked: 0, missing: [] };
    return { kind: 'unread', error };
  }
  const traces = sample
    .map((w) => ({ traceId: w.traceId, scoreIds: w.scoreIds.filter((id) => missing.has(id)) }))
    .filter((w) => w.scoreIds.length > 0);
  return { kind: 'read', checked, missing: traces };
}
