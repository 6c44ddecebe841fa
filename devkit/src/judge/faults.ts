/**
 * Fault knobs of the stand-in, per route: the next N requests (deterministic), a rate (seeded PRNG), or every
 * request (persistent: it survives every retry). One fault at most changes a request's answer; `latency`
 * adds to whatever else happens.
 */
import { seededRandom } from './random.js';
import type { FaultKind, JudgeRoute } from './types.js';

export type FaultRoute = JudgeRoute | 'all';

export interface FaultOptions {
  /** Route the knob applies to (default `chat`; `all` = every route where the kind makes sense). */
  route?: FaultRoute;
  /** For `latency`: milliseconds added (default 1000). */
  ms?: number;
}

export interface AppliedFault {
  kind: FaultKind;
  ms?: number;
}

interface Knob {
  kind: FaultKind;
  route: FaultRoute;
  ms?: number;
}

const CHAT_ONLY: ReadonlySet<FaultKind> = new Set(['wrong_schema', 'truncated', 'fenced_json', 'think_in_content']);
const EMBEDDINGS_ONLY: ReadonlySet<FaultKind> = new Set(['wrong_count', 'wrong_dimension']);

export function appliesTo(kind: FaultKind, route: JudgeRoute): boolean {
  if (EMBEDDINGS_ONLY.has(kind)) return route === 'embeddings';
  return route === 'chat' || !CHAT_ONLY.has(kind);
}

export class FaultController {
  private readonly queued: Array<Knob & { remaining: number }> = [];
  private readonly rates: Array<Knob & { rate: number }> = [];
  private readonly persistent: Knob[] = [];
  private readonly random: () => number;
  /** Every fault applied, in order: what a test can assert on. */
  readonly log: Array<{ route: JudgeRoute; kind: FaultKind }> = [];

  constructor(seed = 1) {
    this.random = seededRandom(seed);
  }

  /** The next `count` requests on the route get this fault. */
  next(kind: FaultKind, count = 1, options: FaultOptions = {}): this {
    this.queued.push({ ...this.knob(kind, options), remaining: count });
    return this;
  }

  /** Each request on the route gets this fault with probability `rate` (seeded, reproducible). */
  rate(kind: FaultKind, rate: number, options: FaultOptions = {}): this {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`fault rate must be between 0 and 1 (got ${rate})`);
    this.rates.push({ ...this.knob(kind, options), rate });
    return this;
  }

  /** Every request on the route gets this fault until `clear()`. */
  always(kind: FaultKind, options: FaultOptions = {}): this {
    this.persistent.push(this.knob(kind, options));
    return this;
  }

  /** Removes every knob (or those of one kind). */
  clear(kind?: FaultKind): this {
    const keep = (k: Knob) => kind !== undefined && k.kind !== kind;
    for (const list of [this.queued, this.rates, this.persistent] as Knob[][]) {
      const kept = list.filter(keep);
      list.splice(0, list.length, ...kept);
    }
    return this;
  }

  /** How many times each kind was applied. */
  counts(): Partial<Record<FaultKind, number>> {
    const out: Partial<Record<FaultKind, number>> = {};
    for (const { kind } of this.log) out[kind] = (out[kind] ?? 0) + 1;
    return out;
  }

  /** The faults for one request on `route`: at most one answer-changing fault, plus added latency. */
  take(route: JudgeRoute): { fault?: AppliedFault; latencyMs: number } {
    let latencyMs = 0;
    let fault: AppliedFault | undefined;
    const consider = (k: Knob): boolean => {
      if (!(k.route === 'all' || k.route === route) || !appliesTo(k.kind, route)) return false;
      if (k.kind === 'latency') {
        latencyMs += k.ms ?? 1000;
        this.log.push({ route, kind: k.kind });
        return true;
      }
      if (fault) return false;
      fault = { kind: k.kind, ...(k.ms !== undefined ? { ms: k.ms } : {}) };
      this.log.push({ route, kind: k.kind });
      return true;
    };
    for (const k of this.persistent) consider(k);
    for (const k of this.queued) {
      if (k.remaining > 0 && consider(k)) k.remaining -= 1;
    }
    for (let i = this.queued.length - 1; i >= 0; i--) if (this.queued[i]!.remaining <= 0) this.queued.splice(i, 1);
    for (const k of this.rates) {
      if ((k.route === 'all' || k.route === route) && this.random() < k.rate) consider(k);
    }
    return { ...(fault ? { fault } : {}), latencyMs };
  }

  private knob(kind: FaultKind, options: FaultOptions): Knob {
    const route = options.route ?? 'chat';
    if (route !== 'all' && !appliesTo(kind, route))
      throw new Error(`fault ${kind} does not apply to the ${route} route`);
    return { kind, route, ...(options.ms !== undefined ? { ms: options.ms } : {}) };
  }
}
