import type { Leases } from './roles.js';
import type { LeaseHolder } from './types.js';

/** Timers the keeper schedules its renewals with; tests pass fake ones. */
export interface LeaseTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: LeaseTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A held lease never keeps the process alive on its own.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** `taken`: another holder has it now. `expired`: renewals failed until the lease ran out. */
export type LeaseLoss = 'taken' | 'expired';

export interface LeaseKeeperOptions {
  leases: Pick<Leases, 'renewLease' | 'releaseLease'>;
  name: string;
  holder: LeaseHolder;
  ttlMs: number;
  now: () => number;
  timers?: LeaseTimers;
  /** Called once when the lease is lost; no renewal follows. */
  onLost: (why: LeaseLoss) => void;
  /** A renewal that failed (the store unreachable): the keeper retries until the lease would expire. */
  onRenewError?: (err: unknown) => void;
}

/**
 * Holds a lease that was acquired through a run: renews it on its own timer every third of its time to live,
 * whatever the run is doing (a long listing, a slow judge), stops on `release()`, and reports a loss once.
 * The run checks nothing itself; it learns of a loss through `onLost` (bullmq's lock manager works this way).
 */
export class LeaseKeeper {
  private handle: unknown = null;
  private renewing: Promise<void> | null = null;
  private lastRenewedAt: number;
  private stopped = false;
  private lostWhy: LeaseLoss | null = null;
  private readonly timers: LeaseTimers;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.timers = options.timers ?? systemTimers;
    this.lastRenewedAt = options.now();
  }

  /** Starts renewing; the lease must be held already (just acquired). */
  start(): this {
    this.lastRenewedAt = this.options.now();
    this.schedule();
    return this;
  }

  get lost(): LeaseLoss | null {
    return this.lostWhy;
  }

  /** Stops renewing (waits for a renewal in flight) and gives the lease back unless it was lost. */
  async release(): Promise<void> {
    await this.stop();
    if (!this.lostWhy) await this.options.leases.releaseLease(this.options.name, this.options.holder);
  }

  /** Stops renewing, keeping the lease until it expires. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
    await this.renewing;
  }

  private get interval(): number {
    return Math.max(1, Math.floor(this.options.ttlMs / 3));
  }

  private schedule(): void {
    if (this.stopped || this.lostWhy) return;
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      this.renewing = this.renew().finally(() => {
        this.renewing = null;
        this.schedule();
      });
    }, this.interval);
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    const { leases, name, holder, ttlMs, now } = this.options;
    const at = now();
    try {
      if (await leases.renewLease(name, holder, ttlMs, at)) {
        this.lastRenewedAt = at;
        return;
      }
      this.lose('taken');
    } catch (err) {
      this.options.onRenewError?.(err);
      if (now() - this.lastRenewedAt >= ttlMs) this.lose('expired');
    }
  }

  private lose(why: LeaseLoss): void {
    if (this.lostWhy || this.stopped) return;
    this.lostWhy = why;
    this.options.onLost(why);
  }
}
