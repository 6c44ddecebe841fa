import { CronSchedule } from '../internal/index.js';
import type { JobRunContext, Logger, RunReason } from '../runtime/index.js';

/** setTimeout's longest delay (about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface JobSpec {
  name: string;
  /** Cron expression (5 or 6 fields), in the scheduler's time zone. */
  schedule: string;
  /** `more: true` asks for another run right away (a capped window left settled time behind). */
  run: (ctx: JobRunContext) => Promise<{ more?: boolean } | void>;
  /** When the job last succeeded; a start-up catch-up run happens when that is longer ago than the interval. */
  lastSuccessAt?: () => Promise<number | null>;
}

export interface SchedulerOptions {
  /** IANA time zone the cron expressions are read in. */
  timezone: string;
  logger: Logger;
  now?: () => number;
  /** Back-to-back runs allowed when a job keeps asking for more. */
  maxConsecutiveRuns?: number;
  /** Told each time a job's timer is set: when it fires next (at start, then at every firing). */
  onArmed?: (job: string, next: Date) => void;
}

export interface RunningJob {
  job: string;
  since: number;
  reason: RunReason;
}

/**
 * Milliseconds between the next two firings of a cron expression (or a schedule's): what "the interval" means for
 * catch-up.
 */
export function cronIntervalMs(task: Pick<CronSchedule, 'getNextRuns'> | string, timezone?: string): number {
  if (typeof task === 'string') return cronIntervalMs(new CronSchedule(task, timezone ?? 'UTC'));
  const [a, b] = task.getNextRuns(2);
  return a && b ? b.getTime() - a.getTime() : Number.POSITIVE_INFINITY;
}

export function catchUpDue(lastSuccessAt: number | null, now: number, intervalMs: number): boolean {
  return lastSuccessAt === null || now - lastSuccessAt > intervalMs;
}

/**
 * Runs jobs on cron schedules (a timer to each next firing, computed by `CronSchedule`), never two runs of the
 * same job at once, and catches up at start-up when a job's last success is older than its interval.
 */
export class Scheduler {
  private readonly jobs = new Map<string, { spec: JobSpec; schedule: CronSchedule; timer?: NodeJS.Timeout }>();
  private readonly running = new Map<
    string,
    { promise: Promise<void>; since: number; reason: RunReason; stop: AbortController; abort: AbortController }
  >();
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
  }

  add(spec: JobSpec): void {
    if (this.jobs.has(spec.name)) throw new Error(`job ${spec.name} is already scheduled`);
    let schedule: CronSchedule;
    try {
      schedule = new CronSchedule(spec.schedule, this.options.timezone);
    } catch {
      throw new Error(`job ${spec.name}: invalid cron expression ${JSON.stringify(spec.schedule)}`);
    }
    this.jobs.set(spec.name, { spec, schedule });
  }

  /** Sets the job's timer to its next firing (the wall clock's), in steps setTimeout can take. */
  private arm(name: string): void {
    const job = this.jobs.get(name);
    if (!job || this.stopped) return;
    const next = job.schedule.next(new Date());
    if (next === null) return;
    this.options.onArmed?.(name, next);
    const wait = () => {
      const left = next.getTime() - Date.now();
      if (left > 0) {
        job.timer = setTimeout(wait, Math.min(left, MAX_TIMER_MS));
        return;
      }
      void this.trigger(name, 'scheduled');
      this.arm(name);
    };
    wait();
  }

  /** Starts the cron tasks, then runs the catch-ups that are due (without waiting for them). */
  async start(): Promise<void> {
    for (const { spec, schedule } of this.jobs.values()) {
      this.arm(spec.name);
      const last = spec.lastSuccessAt ? await spec.lastSuccessAt() : null;
      const interval = cronIntervalMs(schedule);
      if (spec.lastSuccessAt && catchUpDue(last, this.now(), interval)) {
        this.options.logger.info(
          { job: spec.name, lastSuccessAt: last === null ? null : new Date(last).toISOString() },
          'last success is older than the interval; catching up now',
        );
        void this.trigger(spec.name, 'catch_up');
      }
    }
  }

  /** Every job's cron expression, as scheduled. */
  schedules(): Array<{ name: string; schedule: string }> {
    return [...this.jobs.values()].map((j) => ({ name: j.spec.name, schedule: j.spec.schedule }));
  }

  nextRun(name: string): Date | null {
    return this.jobs.get(name)?.schedule.next(new Date()) ?? null;
  }

  /** Runs a job now unless it is already running (then resolves when that run ends). */
  trigger(name: string, reason: RunReason = 'manual'): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) return Promise.reject(new Error(`no job named ${name}`));
    const current = this.running.get(name);
    if (current) {
      if (reason === 'scheduled')
        this.options.logger.warn(
          { job: name, since: new Date(current.since).toISOString() },
          'previous run still in progress; skipping this firing',
        );
      return current.promise;
    }
    if (this.stopped) return Promise.resolve();
    const stop = new AbortController();
    const abort = new AbortController();
    const promise = this.runLoop(job.spec, reason, stop.signal, abort.signal).finally(() => this.running.delete(name));
    this.running.set(name, { promise, since: this.now(), reason, stop, abort });
    return promise;
  }

  private async runLoop(spec: JobSpec, reason: RunReason, stop: AbortSignal, signal: AbortSignal): Promise<void> {
    const max = this.options.maxConsecutiveRuns ?? 48;
    for (let i = 0; i < max && !stop.aborted; i++) {
      let result: { more?: boolean } | void;
      try {
        result = await spec.run({ reason: i === 0 ? reason : 'catch_up', stop, signal });
      } catch (err) {
        this.options.logger.error({ job: spec.name, err }, 'job run failed');
        return;
      }
      if (!result?.more) return;
    }
  }

  runningJobs(): RunningJob[] {
    return [...this.running.entries()].map(([job, r]) => ({ job, since: r.since, reason: r.reason }));
  }

  /** Stops firing new runs; runs in progress continue (see `drain`). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) clearTimeout(job.timer);
  }

  /**
   * Asks running jobs to stop taking new work and waits up to `deadlineMs`; past it, in-flight work is
   * abandoned (it stays pending in the ledger). Resolves true when everything finished in time.
   */
  async drain(deadlineMs: number): Promise<boolean> {
    const runs = [...this.running.values()];
    for (const r of runs) r.stop.abort(new Error('shutting down'));
    if (runs.length === 0) return true;
    const all = Promise.allSettled(runs.map((r) => r.promise)).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), deadlineMs);
    });
    const finished = await Promise.race([all, timeout]);
    clearTimeout(timer);
    if (finished) return true;
    for (const r of runs) r.abort.abort(new Error('shutdown deadline reached'));
    // Abandoning is quick (ledger entries go back to pending); give it a moment to record that.
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, Math.min(2000, deadlineMs)).unref())]);
    return false;
  }
}
