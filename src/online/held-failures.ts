import type { Channel, Dependency } from './failures.js';
import type { OutageDetector } from './outage.js';

/** What to do with failed traces: charge an attempt (their own failure), or refund it (an outage). */
export interface Release<T> {
  charge: T[];
  refund: T[];
  /** The channel is down: stop taking traces. */
  outage: boolean;
}

interface ChannelState<T> {
  successes: number;
  /** Failures of distinct traces since the last success. */
  streak: number;
  outage: boolean;
  held: T[];
}

/**
 * Decides, per channel, whether traces that failed on it are to blame. A failed trace is held (neither
 * charged nor refunded) until the channel shows what it is doing: a success on it means the held traces
 * failed alone and are charged; `threshold` traces failing in a row with no success between is an outage,
 * and so is a channel whose probe says down; every held trace is refunded then, and so is every later
 * failure on that channel in this run. What is still held at the end is settled by `settleRest`.
 */
export class HeldFailures<T> {
  private readonly channels = new Map<Channel, ChannelState<T>>();

  constructor(
    private readonly detector: OutageDetector,
    private readonly threshold = 3,
  ) {}

  private state(channel: Channel): ChannelState<T> {
    let s = this.channels.get(channel);
    if (!s) this.channels.set(channel, (s = { successes: 0, streak: 0, outage: false, held: [] }));
    return s;
  }

  /** A trace got a proper answer on `channel`: what was held there failed alone. */
  succeeded(channel: Channel): T[] {
    const s = this.state(channel);
    s.successes += 1;
    s.streak = 0;
    return s.held.splice(0);
  }

  isOutage(channel: Channel): boolean {
    return this.channels.get(channel)?.outage ?? false;
  }

  /** Everything still held, undecided (the run is being abandoned). */
  takeAll(): T[] {
    return [...this.channels.values()].flatMap((s) => s.held.splice(0));
  }

  async failed(channel: Channel, dependency: Dependency, item: T, signal: AbortSignal): Promise<Release<T>> {
    const s = this.state(channel);
    if (s.outage) return { charge: [], refund: [item], outage: true };
    s.streak += 1;
    s.held.push(item);
    if (s.streak >= this.threshold) return this.declare(s);
    const down = await this.detector.isDown(dependency, signal, channel);
    // Another failure may have declared the outage (and refunded this item) while the probe ran.
    if (s.outage) return { charge: [], refund: [], outage: true };
    return down ? this.declare(s) : { charge: [], refund: [], outage: false };
  }

  /**
   * Settles what is still held once no trace is in flight: charged when the channel served some trace this
   * run; refunded when two or more traces failed on it and none succeeded, or when its probe says down;
   * charged otherwise (one trace failing alone against a channel that answers its probe).
   */
  async settleRest(
    dependencyOf: (channel: Channel) => Dependency,
    signal: AbortSignal,
  ): Promise<Release<T> & { outageChannels: Channel[] }> {
    const out: Release<T> & { outageChannels: Channel[] } = {
      charge: [],
      refund: [],
      outage: false,
      outageChannels: [],
    };
    for (const [channel, s] of this.channels) {
      if (s.held.length === 0) continue;
      const held = s.held.splice(0);
      const down =
        s.successes === 0 && (held.length >= 2 || (await this.detector.isDown(dependencyOf(channel), signal, channel)));
      if (down) {
        s.outage = true;
        out.outage = true;
        out.outageChannels.push(channel);
        out.refund.push(...held);
      } else out.charge.push(...held);
    }
    return out;
  }

  private declare(s: ChannelState<T>): Release<T> {
    s.outage = true;
    return { charge: [], refund: s.held.splice(0), outage: true };
  }
}
