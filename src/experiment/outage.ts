/**
 * Tells an outage (the judge, the RAG service or Langfuse unreachable) apart from one item that keeps failing,
 * with the online job's semantics (`src/online/outage.ts`): after an outage-like failure (connection refused,
 * timeout, 5xx, 429 — after the call's own retries) the dependency is probed, and a probe that fails means
 * down; answers are cached briefly so a burst of failures costs one probe. A dependency without a probe (the RAG
 * service), or one whose probe answers while its calls keep failing, is down once `streak` items in a row failed
 * on it that way, with no answer from it in between. Any answer from it, even an unusable one, ends the streak.
 */
import type { Dependency } from './errors.js';

/** Whether a dependency answers at all. */
export type HealthProbe = (signal: AbortSignal) => Promise<boolean>;

/** Consecutive items failing on one dependency (outage-like, after retries) that make it count as down. */
export const OUTAGE_STREAK = 3;
const PROBE_CACHE_MS = 30_000;

export class OutageWatch {
  private readonly streaks = new Map<Dependency, number>();
  private readonly probed = new Map<Dependency, { down: boolean; at: number } | Promise<boolean>>();

  constructor(
    private readonly probes: Partial<Record<Dependency, HealthProbe>>,
    private readonly now: () => number,
    private readonly streak = OUTAGE_STREAK,
  ) {}

  /** A call to the dependency got an answer: whatever went wrong was the item's own. */
  answered(dependency: Dependency): void {
    this.streaks.set(dependency, 0);
  }

  /** An item's call failed in an outage-like way after its retries; resolves true when the dependency is down. */
  async failed(dependency: Dependency, signal: AbortSignal): Promise<boolean> {
    const streak = (this.streaks.get(dependency) ?? 0) + 1;
    this.streaks.set(dependency, streak);
    if (streak >= this.streak) return true;
    return this.probeSaysDown(dependency, signal);
  }

  private async probeSaysDown(dependency: Dependency, signal: AbortSignal): Promise<boolean> {
    const probe = this.probes[dependency];
    if (!probe) return false;
    const cached = this.probed.get(dependency);
    if (cached instanceof Promise) return cached;
    if (cached && this.now() - cached.at < PROBE_CACHE_MS) return cached.down;
    const pending = probe(signal).then(
      (up) => !up,
      () => true,
    );
    this.probed.set(dependency, pending);
    const down = await pending;
    this.probed.set(dependency, { down, at: this.now() });
    return down;
  }
}
