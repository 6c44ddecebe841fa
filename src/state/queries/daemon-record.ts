import type { MetaValue, StateStore } from '../types.js';

/**
 * What the running daemon schedules, kept in the state so `ragwatch status` answers for the daemon rather than for
 * whatever configuration it is given: written when the daemon starts, each time a job's timer is set to its next
 * run, and when it stops.
 */

export const DAEMON_META_KEY = 'daemon';

export interface DaemonRecord {
  host: string;
  pid: number;
  startedAt: number;
  /** Null while it runs (or when it died without stopping). */
  stoppedAt: number | null;
  /** IANA time zone its schedules are read in. */
  timezone: string;
  /** The jobs it schedules: the cron expression and when its timer fires next. */
  jobs: Record<string, { schedule: string; nextRunAt: number | null }>;
  /** When the record was last written, ms since epoch. */
  at: number;
}

export async function recordDaemon(
  state: Pick<StateStore, 'setMeta'>,
  record: Omit<DaemonRecord, 'at'>,
  now: number,
): Promise<void> {
  await state.setMeta(DAEMON_META_KEY, JSON.stringify(record), now);
}

/** Null for a missing or unrecognisable record (a state the daemon of an older ragwatch wrote has none). */
export function parseDaemonRecord(meta: MetaValue | null): DaemonRecord | null {
  if (!meta) return null;
  try {
    const v = JSON.parse(meta.value) as Partial<DaemonRecord>;
    if (typeof v.host !== 'string' || typeof v.pid !== 'number' || typeof v.startedAt !== 'number') return null;
    if (typeof v.timezone !== 'string' || typeof v.jobs !== 'object' || v.jobs === null) return null;
    return {
      host: v.host,
      pid: v.pid,
      startedAt: v.startedAt,
      stoppedAt: typeof v.stoppedAt === 'number' ? v.stoppedAt : null,
      timezone: v.timezone,
      jobs: v.jobs,
      at: meta.updatedAt,
    };
  } catch {
    return null;
  }
}
