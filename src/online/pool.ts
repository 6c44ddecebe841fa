/**
 * Runs at most `limit` tasks at once. `submit` waits for a free slot before starting the task, so a producer
 * iterating a long listing never queues more than `limit` pieces of work (memory stays flat).
 */
export class TaskPool {
  private running = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly inFlight = new Set<Promise<void>>();
  private firstError: unknown = undefined;
  private failed = false;

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`pool limit must be a positive integer (got ${limit})`);
  }

  /** Starts `task` once a slot is free. A task that throws makes `drain` throw (the first such error). */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.running >= this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.running += 1;
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
        this.running -= 1;
        this.inFlight.delete(run!);
        this.waiters.shift()?.();
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
    return this.running;
  }
}
