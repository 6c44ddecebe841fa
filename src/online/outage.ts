import type { Channel, Dependency } from './failures.js';
import type { Clock, HealthProbe } from './ports.js';

/** Probes by dependency, and optionally by channel (a probe of the very route that failed). */
export type Probes = Partial<Record<Dependency | Channel, HealthProbe>>;

/**
 * Tells "the judge (or Langfuse) is down" apart from "this trace keeps failing": after an outage-like failure
 * the dependency is probed. Down → the trace is not to blame (its attempt is refunded, the tick stops).
 * Up → the failure is the trace's own and counts toward `dead`. Answers are cached briefly so a burst of
 * failures costs one probe. With a channel, its own probe is asked when there is one (score writes can fail
 * while Langfuse's health endpoint answers).
 */
export class OutageDetector {
  private readonly cache = new Map<Dependency | Channel, { down: boolean; at: number; pending?: Promise<boolean> }>();

  constructor(
    private readonly probes: Probes,
    private readonly clock: Clock,
    private readonly cacheMs = 30_000,
  ) {}

  async isDown(dependency: Dependency, signal: AbortSignal, channel?: Channel): Promise<boolean> {
    const key = channel !== undefined && this.probes[channel] ? channel : dependency;
    const probe = this.probes[key];
    // Without a probe nothing can be told apart: blame the trace, as bounded attempts keep that safe.
    if (!probe) return false;
    const cached = this.cache.get(key);
    if (cached?.pending) return cached.pending;
    if (cached && this.clock.now() - cached.at < this.cacheMs) return cached.down;
    const pending = probe(signal).then(
      (up) => !up,
      () => true,
    );
    this.cache.set(key, { down: false, at: this.clock.now(), pending });
    const down = await pending;
    this.cache.set(key, { down, at: this.clock.now() });
    return down;
  }
}
