/** The stand-in's serving slots: at most `parallelism` requests in service, the rest wait in an unbounded FIFO queue; `pause()` holds everyone at the door. */
export class SlotLimiter {
  private inService = 0;
  private paused = false;
  private readonly waiting: Array<{ grant: () => void; signal: AbortSignal }> = [];
  maxInService = 0;
  maxQueued = 0;
  /** Time integrals since creation, in request·milliseconds: of the requests in service, and of those plus the queued ones. */
  inServiceMs = 0;
  inFlightMs = 0;
  /** Slots handed out since creation. */
  granted = 0;
  private lastChange: number;

  constructor(
    private parallelism: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastChange = now();
  }

  /** Adds the time since the last change at the current counts (call before a count changes, and before reading). */
  settle(): void {
    const now = this.now();
    const dt = now - this.lastChange;
    this.lastChange = now;
    this.inServiceMs += this.inService * dt;
    this.inFlightMs += (this.inService + this.waiting.length) * dt;
  }

  setParallelism(n: number): void {
    if (!(n >= 1)) throw new RangeError(`parallelism must be at least 1 (got ${n})`);
    this.parallelism = n;
    this.pump();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  get queued(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.inService;
  }

  /** Resolves with a release function once a slot is free; rejects if the signal aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.settle();
          this.inService += 1;
          this.granted += 1;
          this.maxInService = Math.max(this.maxInService, this.inService);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.settle();
            this.inService -= 1;
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        this.settle();
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.settle();
      this.waiting.push(entry);
      this.maxQueued = Math.max(this.maxQueued, this.waiting.length);
      this.pump();
    });
  }

  private pump(): void {
    while (!this.paused && this.inService < this.parallelism && this.waiting.length > 0) this.waiting.shift()!.grant();
  }
}

/** setTimeout as a promise that rejects when the signal aborts. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    // An infinite wait (a hung request) ends only through the signal.
    const timer =
      ms === Infinity
        ? undefined
        : setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
