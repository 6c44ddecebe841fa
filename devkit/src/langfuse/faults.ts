/**
 * Per-route fault knobs. A pattern is matched against `METHOD /path` of a request, the route template
 * (e.g. `/api/public/traces/{traceId}`) and the concrete path; `*` matches any run of characters and an optional
 * leading method (`GET /api/public/traces`) narrows it to that method. The most recently set matching pattern wins.
 */
export interface FaultKnobs {
  /** Probability (0..1) that a request is answered with `errorStatus`; 1 fails every request. */
  errorRate?: number;
  /** Fail exactly the next N matching requests with `errorStatus` (deterministic). */
  failNext?: number;
  /** 429 (with Retry-After), 500 or 503. Default 503. */
  errorStatus?: 429 | 500 | 503;
  /** Seconds sent in Retry-After on 429 (and 503). Default 1. */
  retryAfterSeconds?: number;
  /** Added latency before the route answers. */
  latencyMs?: number;
  /** Probability (0..1) that the connection is destroyed without an answer. */
  resetRate?: number;
  /** Destroy the connection of exactly the next N matching requests. */
  resetNext?: number;
  /**
   * Read lag (seconds, injected clock). On a read route: records become listable/gettable through it only this
   * long after the stand-in received them. On a write route (ingestion, OTLP): what it writes stays hidden from
   * every read route that long. Both may apply; the longer wins.
   */
  readLagSeconds?: number;
  /**
   * On the ingestion route: probability (0..1) that a score-create event is acknowledged in the 207 and then
   * dropped, as Langfuse's worker drops a score its asynchronous validation refuses (see `store.droppedScores`).
   */
  dropScoreRate?: number;
  /** Acknowledge and then drop exactly the next N score-create events (deterministic). */
  dropScoresNext?: number;
}

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'error'; status: 429 | 500 | 503; retryAfterSeconds: number; latencyMs: number }
  | { kind: 'reset'; latencyMs: number };

interface Entry {
  pattern: string;
  method: string | null;
  regex: RegExp;
  knobs: FaultKnobs;
}

export class Faults {
  private entries: Entry[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  /** Sets (replaces) the knobs of a pattern. */
  set(pattern: string, knobs: FaultKnobs): void {
    this.clear(pattern);
    const match = /^([A-Z]+)\s+(.*)$/.exec(pattern.trim());
    const method = match?.[1] ?? null;
    const pathPattern = match?.[2] ?? pattern.trim();
    this.entries.push({ pattern, method, regex: globToRegex(pathPattern), knobs: { ...knobs } });
  }

  /** Removes one pattern, or every knob when called without one. */
  clear(pattern?: string): void {
    this.entries = pattern === undefined ? [] : this.entries.filter((e) => e.pattern !== pattern);
  }

  /** The knobs in force for a request, or undefined. */
  knobsFor(method: string, template: string | null, path: string): FaultKnobs | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      if (entry.method !== null && entry.method !== method) continue;
      if (entry.regex.test(path) || (template !== null && entry.regex.test(template))) return entry.knobs;
    }
    return undefined;
  }

  /** Decides (and consumes `failNext`/`resetNext`) what happens to one request. */
  decide(method: string, template: string | null, path: string): FaultDecision {
    const knobs = this.knobsFor(method, template, path);
    const latencyMs = knobs?.latencyMs ?? 0;
    if (!knobs) return { kind: 'none', latencyMs };
    if ((knobs.resetNext ?? 0) > 0) {
      knobs.resetNext = (knobs.resetNext ?? 0) - 1;
      return { kind: 'reset', latencyMs };
    }
    if ((knobs.resetRate ?? 0) > 0 && this.random() < (knobs.resetRate ?? 0)) return { kind: 'reset', latencyMs };
    const error = {
      kind: 'error' as const,
      status: knobs.errorStatus ?? 503,
      retryAfterSeconds: knobs.retryAfterSeconds ?? 1,
      latencyMs,
    };
    if ((knobs.failNext ?? 0) > 0) {
      knobs.failNext = (knobs.failNext ?? 0) - 1;
      return error;
    }
    if ((knobs.errorRate ?? 0) > 0 && this.random() < (knobs.errorRate ?? 0)) return error;
    return { kind: 'none', latencyMs };
  }
}

/**
 * Whether the next acknowledged score of a request under `knobs` is dropped after the 207 (consumes
 * `dropScoresNext`).
 */
export function scoreDropper(knobs: FaultKnobs | undefined, random: () => number): () => boolean {
  return () => {
    if (!knobs) return false;
    if ((knobs.dropScoresNext ?? 0) > 0) {
      knobs.dropScoresNext = (knobs.dropScoresNext ?? 0) - 1;
      return true;
    }
    return (knobs.dropScoreRate ?? 0) > 0 && random() < (knobs.dropScoreRate ?? 0);
  };
}

function globToRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export { seededRandom } from 'ragwatch/random.js';
