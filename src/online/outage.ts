import type { Dependency } from './failures.js';
import type { Clock, HealthProbe } from './ports.js';

/**
 * Tells "the judge (or Langfuse) is down" apart from "this trace keeps failing": after an outage-like failure
 * the dependency is probed. Down → the trace is not to blame (its attempt is refunded, the tick stops).
 * Up → the failure is the trace's own and counts toward `dead`. Answers are cached briefly so a burst of
 * failures costs one probe.
 */
export class OutageDetector {
  private readonly cache = new Map<Dependency, { down: boolean; at: number; pending?: Promise<boolean> }>();

  constructor(
    private readonly probes: Partial<Record<Dependency, HealthProbe>>,
    private readonly clock: Clock,
    private readonly cacheMs = 30_000,
  ) {}

  async isDown(dependency: Dependency, signal: AbortSignal): Promise<boolean> {
    const probe = this.probes[dependency];
    // Without a probe nothing can be told apart: blame the trace, as bounded attempts keep that safe.
    if (!probe) return false;
    const cached = this.cache.get(dependency);
    if (cached?.pending) return cached.pending;
    if (cached && this.clock.now() - cached.at < this.cacheMs) return cached.down;
    const pending = probe(signal).then(
      (up) => !up,
      () => true,
    );
    this.cache.set(dependency, { down: false, at: this.clock.now(), pending });
    const down = await pending;
    this.cache.set(dependency, { down, at: this.clock.now() });
    return down;
  }
}
