import { Limiter } from '../internal/index.js';

/**
 * Runs at most `limit` tasks at once (one `Limiter`). `submit` waits for a free slot before starting the task, so
 * a producer iterating a long listing never queues more than `limit` pieces of work (memory stays flat).
 */
export class TaskPool {
  private readonly limiter: Limiter;
  private readonly inFlight = new Set<Promise<void>>();
  private firstError: unknown = undefined;
  private failed = false;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`pool limit must be a positive integer (got ${limit})`);
    this.limiter = new Limiter(limit);
  }

  /** Starts `task` once a slot is free. A task that throws makes `drain` throw (the first such error). */
  async submit(task: () => Promise<void>): Promise<void> {
    const release = await this.limiter.acquire();
    const run: Promise<void> = (async () => {
      await Promise.resolve();
      try {
        await task();
      } catch (err) {
        if (!this.failed) {
          this.failed = true;
          this.firstError = err;
        }
      } finally {
        this.inFlight.delete(run!);
        release();
      }
    })();
    this.inFlight.add(run);
  }

  /** Resolves when every submitted task has finished. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    if (this.failed) throw this.firstError;
  }

  get active(): number {
    return this.limiter.active;
  }

  get free(): number {
    return Math.max(0, this.limiter.limit - this.limiter.active);
  }

  /** Resolves once a slot is free (at once when one is), without holding it. */
  async whenFree(): Promise<void> {
    (await this.limiter.acquire())();
  }
}
