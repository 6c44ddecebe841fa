import type { LeaseTimers } from '../../src/state/lease-keeper.js';

/** Timers that fire only when a test says so: `fire()` runs every callback due, in order. */
export class ManualTimers implements LeaseTimers {
  private next = 1;
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();
  readonly scheduled: number[] = [];

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    this.scheduled.push(ms);
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get count(): number {
    return this.pending.size;
  }

  /** Runs the callbacks scheduled so far, then lets the promises they started settle. */
  async fire(): Promise<void> {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, t] of due) t.callback();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  }
}
