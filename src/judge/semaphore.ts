/** A counting semaphore: at most `limit` holders at once, FIFO waiters, abortable waits. */
export class Semaphore {
  private holders = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`concurrency must be at least 1 (got ${limit})`);
  }

  get active(): number {
    return this.holders;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function (idempotent); rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let listening = false;
      const grant = () => {
        if (listening) signal?.removeEventListener('abort', onAbort);
        this.holders += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.holders -= 1;
          this.waiters.shift()?.();
        });
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      if (this.holders < this.limit) return grant();
      if (signal) {
        signal.addEventListener('abort', onAbort, { once: true });
        listening = true;
      }
      this.waiters.push(grant);
    });
  }
}
