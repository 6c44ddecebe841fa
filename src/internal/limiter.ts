/**
 * The one concurrency limiter: at most `limit` holders at once, abortable waits, and the counts (`active`,
 * `waiting`) the gauges read. Waiters are served by priority, highest first, and in arrival order among equals
 * (all 0 by default: FIFO). `run` holds a slot around one task; `mapLimited` runs a list through it.
 */
interface Waiter {
  grant: () => void;
  priority: number;
}

export class Limiter {
  private holders = 0;
  private readonly waiters: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`concurrency must be at least 1 (got ${limit})`);
  }

  get active(): number {
    return this.holders;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with a release function (idempotent); rejects with the signal's reason if it aborts first. A waiter
   * of higher `priority` is served before those waiting with a lower one.
   */
  acquire(signal?: AbortSignal, priority = 0): Promise<() => void> {
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
          this.next()?.grant();
        });
      };
      const waiter: Waiter = { grant, priority };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      if (this.holders < this.limit) return grant();
      if (signal) {
        signal.addEventListener('abort', onAbort, { once: true });
        listening = true;
      }
      this.waiters.push(waiter);
    });
  }

  /** Takes the waiter to serve next: the highest priority, the earliest among equals. */
  private next(): Waiter | undefined {
    let best = -1;
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i]!;
      const b = this.waiters[best];
      if (best < 0 || w.priority > b!.priority) best = i;
    }
    return best < 0 ? undefined : this.waiters.splice(best, 1)[0];
  }

  /** Runs `task` in a slot. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }
}

/**
 * Runs `work` over `items` at most `concurrency` at a time, starting them in order, and returns the results in
 * item order. Once `halted()` is true no further item starts: those left are `undefined`, as are items whose work
 * returned null.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R | null | void>,
  halted: () => boolean = () => false,
): Promise<Array<R | undefined>> {
  const out = new Array<R | undefined>(items.length).fill(undefined);
  const limiter = new Limiter(Math.max(1, Math.min(concurrency, items.length)));
  const running: Array<Promise<void>> = [];
  let failed = false;
  for (let i = 0; i < items.length; i++) {
    const release = await limiter.acquire();
    if (failed || halted()) {
      release();
      break;
    }
    const one = (async () => {
      try {
        out[i] = ((await work(items[i] as T)) ?? undefined) as R | undefined;
      } finally {
        release();
      }
    })();
    one.catch(() => (failed = true));
    running.push(one);
  }
  await Promise.all(running);
  return out;
}
