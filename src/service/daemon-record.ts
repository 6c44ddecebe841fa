import { hostname } from 'node:os';
import { recordDaemon, type DaemonRecord, type StateStore } from '../state/index.js';
import type { Logger } from '../runtime/index.js';

/**
 * Keeps the daemon's record in the state (what it schedules, when each job runs next, whether it stopped), for
 * `ragwatch status`. Writes one at a time, the latest record last; a write that fails is logged and the next one
 * carries the same facts.
 */
export class DaemonRecordWriter {
  private record: Omit<DaemonRecord, 'at'> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: Pick<StateStore, 'setMeta'>,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** The scheduler started: its jobs, their expressions and next runs. */
  started(timezone: string, jobs: Array<{ name: string; schedule: string; nextRunAt: number | null }>): Promise<void> {
    this.record = {
      host: hostname(),
      pid: process.pid,
      startedAt: this.now(),
      stoppedAt: null,
      timezone,
      jobs: Object.fromEntries(jobs.map((j) => [j.name, { schedule: j.schedule, nextRunAt: j.nextRunAt }])),
    };
    return this.write();
  }

  /** A job's timer was set to `next`. */
  armed(job: string, next: number): void {
    const entry = this.record?.jobs[job];
    if (!entry || entry.nextRunAt === next) return;
    entry.nextRunAt = next;
    void this.write();
  }

  stopped(): Promise<void> {
    if (!this.record) return Promise.resolve();
    this.record.stoppedAt = this.now();
    return this.write();
  }

  private write(): Promise<void> {
    const snapshot = this.record && { ...this.record, jobs: structuredClone(this.record.jobs) };
    this.writing = this.writing.then(async () => {
      if (!snapshot) return;
      try {
        await recordDaemon(this.state, snapshot, this.now());
      } catch (err) {
        this.logger.warn(
          { error: err instanceof Error ? err.name : 'error' },
          'recording the schedule for status failed',
        );
      }
    });
    return this.writing;
  }
}
