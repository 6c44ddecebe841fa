import type { JobRun } from '../types.js';
import {
  deadEntries,
  failingEntries,
  ledgerByDay,
  ledgerTotals,
  type DayBasis,
  type DayRow,
  type LedgerTotals,
} from './ledger.js';
import { DAEMON_META_KEY, parseDaemonRecord, type DaemonRecord } from './daemon-record.js';
import { LANGFUSE_API_META_KEY, parseLangfuseApi } from './langfuse-api.js';
import type { ReadOnlyState } from './read-only.js';
import { cursors, gauges, jobRuns, leases, readMeta, type LeaseRecord } from './runs.js';
import { skipsByTraceName, type SkipsByTraceName } from './skips.js';
import { nextCronRun } from '../../internal/index.js';

/**
 * The report `ragwatch status` prints, and its `--json` shape (summarised in `ragwatch status --help`). Built from a
 * read-only view of the state; every time is ISO 8601 UTC; IDs, codes and counts only.
 */

export const STATUS_REPORT_VERSION = 1;

/** A job the daemon may run, as the configuration describes it. */
export interface JobDescriptor {
  name: string;
  enabled: boolean;
  /** Cron expression, or null for jobs that only run by hand (backfills). */
  schedule: string | null;
  /** Lease the job holds while it runs, when it takes one: tells a live run from one whose process died. */
  lease: string | null;
  /** A run longer than this is reported `stuck`. */
  stuckAfterMs: number;
  /** Listed only when the state has a run of it (jobs started by hand). */
  onlyIfRun?: boolean;
}

/**
 * `never_run`: no start recorded. `idle`: the last run finished. `running`: started, not finished, its
 * lease (if any) alive. `stuck`: running longer than the job's limit. `interrupted`: started, never
 * finished and its lease gone (the process died mid-run; the next run picks the work up).
 */
export type JobState = 'never_run' | 'idle' | 'running' | 'stuck' | 'interrupted';

export interface JobStatus {
  name: string;
  enabled: boolean;
  schedule: string | null;
  nextRunAt: string | null;
  /** Seconds between the schedule's next two firings. */
  intervalSeconds: number | null;
  lastStartAt: string | null;
  lastFinishAt: string | null;
  lastSuccessAt: string | null;
  lastOutcome: string | null;
  state: JobState;
  /** For `running`, `stuck` and `interrupted`: seconds since the run started. */
  runningSeconds: number | null;
  /** Enabled, scheduled, and no success for three intervals (what the stalled-job alert fires on). */
  stale: boolean;
  lease: { holder: string; host: string; pid: number; expiresAt: string } | null;
  /** Why `nextRunAt` is null for a scheduled job (an expression the scheduler rejects). */
  scheduleError?: string;
}

export interface StatusReport {
  version: typeof STATUS_REPORT_VERSION;
  generatedAt: string;
  state: { path: string; exists: boolean; schemaVersion: number | null };
  days: { basis: DayBasis; from: string; to: string; rows: DayRow[] };
  totals: LedgerTotals;
  /** Skips per trace name over the days of `days`. */
  skipsByTraceName: SkipsByTraceName;
  dead: {
    count: number;
    shown: Array<{
      traceId: string;
      attempts: number;
      lastError: string | null;
      diedAt: string;
      traceTimestamp: string;
    }>;
  };
  /** Failed traces still to be retried, most recently failed first: what goes dead next if nothing changes. */
  failing: {
    count: number;
    shown: Array<{
      traceId: string;
      attempts: number;
      lastError: string | null;
      nextAttemptAt: string | null;
      traceTimestamp: string;
    }>;
  };
  /**
   * The daemon that last ran on this state, as it recorded itself: while it runs, `jobs` show its schedules and
   * next runs rather than the configuration's, and `differs` says where the configuration given differs.
   */
  daemon: {
    host: string;
    pid: number;
    startedAt: string;
    stoppedAt: string | null;
    running: boolean;
    timezone: string;
    recordedAt: string;
    differs: string[];
  } | null;
  jobs: JobStatus[];
  /** The time zone the schedules are read in: the running daemon's, else the configuration's. */
  timezone: string;
  cursors: Array<{ job: string; position: string; updatedAt: string; lagSeconds: number }>;
  langfuse: {
    configured: string;
    apiGeneration: 'v3' | 'v4' | null;
    source: 'detected' | 'configured' | null;
    recordedAt: string | null;
  };
  gauges: Record<string, number>;
}

export interface StatusOptions {
  path: string;
  now: number;
  days: number;
  basis: DayBasis;
  timezone: string;
  jobs: JobDescriptor[];
  langfuseSetting: string;
  /** This host's name and a liveness check, to tell a daemon that died from one that runs. */
  host?: string;
  isProcessAlive?: (pid: number) => boolean;
  /** How many dead entries to list (most recent first). */
  deadShown?: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function buildStatusReport(state: ReadOnlyState | null, options: StatusOptions): StatusReport {
  const { now } = options;
  const rows = ledgerByDay(state, { now, days: options.days, basis: options.basis });
  const totals = ledgerTotals(state);
  const runs = new Map(jobRuns(state).map((r) => [r.job, r]));
  const leaseByName = new Map(leases(state).map((l) => [l.name, l]));
  const described = new Map(options.jobs.filter((j) => !j.onlyIfRun || runs.has(j.name)).map((j) => [j.name, j]));
  // Jobs found in the state that the configuration does not describe (e.g. `backfill`) are shown too.
  for (const job of runs.keys()) {
    if (!described.has(job))
      described.set(job, {
        name: job,
        enabled: true,
        schedule: null,
        lease: null,
        stuckAfterMs: Number.POSITIVE_INFINITY,
      });
  }
  const api = parseLangfuseApi(readMeta(state, LANGFUSE_API_META_KEY));
  const daemon = parseDaemonRecord(readMeta(state, DAEMON_META_KEY));
  const running =
    daemon !== null &&
    daemon.stoppedAt === null &&
    (daemon.host !== options.host || (options.isProcessAlive ?? (() => true))(daemon.pid));
  const differs = daemon && running ? configDiffers(options, daemon) : [];
  const timezone = daemon && running ? daemon.timezone : options.timezone;
  if (daemon && running) {
    for (const job of described.values()) {
      if (job.schedule === null) continue;
      const scheduled = daemon.jobs[job.name];
      described.set(job.name, {
        ...job,
        enabled: scheduled !== undefined,
        schedule: scheduled?.schedule ?? job.schedule,
      });
    }
  }
  return {
    version: STATUS_REPORT_VERSION,
    generatedAt: new Date(now).toISOString(),
    state: { path: options.path, exists: state !== null, schemaVersion: state ? state.schemaVersion : null },
    days: { basis: options.basis, from: rows[0]!.day, to: rows[rows.length - 1]!.day, rows },
    totals,
    skipsByTraceName: skipsByTraceName(state, { now, days: options.days, basis: options.basis }),
    dead: {
      count: totals.dead,
      shown: deadEntries(state, { limit: options.deadShown ?? 10 }).map((d) => ({
        traceId: d.traceId,
        attempts: d.attempts,
        lastError: d.lastError,
        diedAt: iso(d.diedAt)!,
        traceTimestamp: iso(d.traceTimestamp)!,
      })),
    },
    failing: {
      count: totals.failed,
      shown: failingEntries(state, { limit: options.deadShown ?? 10 }).map((f) => ({
        traceId: f.traceId,
        attempts: f.attempts,
        lastError: f.lastError,
        nextAttemptAt: iso(f.nextAttemptAt),
        traceTimestamp: iso(f.traceTimestamp)!,
      })),
    },
    daemon: daemon
      ? {
          host: daemon.host,
          pid: daemon.pid,
          startedAt: iso(daemon.startedAt)!,
          stoppedAt: iso(daemon.stoppedAt),
          running,
          timezone: daemon.timezone,
          recordedAt: iso(daemon.at)!,
          differs,
        }
      : null,
    jobs: [...described.values()].map((job) => {
      const status = jobStatus(
        job,
        runs.get(job.name) ?? null,
        job.lease ? (leaseByName.get(job.lease) ?? null) : null,
        timezone,
        now,
      );
      // The daemon's own next run, when its timer is set ahead of now.
      const recorded = running ? daemon?.jobs[job.name]?.nextRunAt : undefined;
      return recorded && recorded > now ? { ...status, nextRunAt: iso(recorded) } : status;
    }),
    timezone,
    cursors: cursors(state).map((c) => ({
      job: c.job,
      position: iso(c.position)!,
      updatedAt: iso(c.updatedAt)!,
      lagSeconds: Math.max(0, Math.round((now - c.position) / 1000)),
    })),
    langfuse: {
      configured: options.langfuseSetting,
      apiGeneration: api?.generation ?? null,
      source: api?.source ?? null,
      recordedAt: iso(api?.at ?? null),
    },
    gauges: gauges(state),
  };
}

/** Where a job stands: pure, from its recorded run, its lease and the clock. */
export function jobState(
  run: JobRun | null,
  lease: LeaseRecord | null,
  hasLease: boolean,
  stuckAfterMs: number,
  now: number,
): { state: JobState; runningSeconds: number | null } {
  if (!run || run.lastStartAt === null) return { state: 'never_run', runningSeconds: null };
  const unfinished = run.lastFinishAt === null || run.lastFinishAt < run.lastStartAt;
  if (!unfinished) return { state: 'idle', runningSeconds: null };
  const runningSeconds = Math.max(0, Math.round((now - run.lastStartAt) / 1000));
  if (hasLease && (!lease || lease.expiresAt <= now)) return { state: 'interrupted', runningSeconds };
  return { state: now - run.lastStartAt > stuckAfterMs ? 'stuck' : 'running', runningSeconds };
}

function jobStatus(
  job: JobDescriptor,
  run: JobRun | null,
  lease: LeaseRecord | null,
  timezone: string,
  now: number,
): JobStatus {
  const { state, runningSeconds } = jobState(run, lease, job.lease !== null, job.stuckAfterMs, now);
  let nextRunAt: string | null = null;
  let intervalSeconds: number | null = null;
  let scheduleError: string | undefined;
  if (job.schedule !== null) {
    try {
      const next = nextCronRun(job.schedule, timezone, new Date(now));
      const after = next ? nextCronRun(job.schedule, timezone, next) : null;
      if (job.enabled) nextRunAt = iso(next?.getTime() ?? null);
      if (next && after) intervalSeconds = Math.round((after.getTime() - next.getTime()) / 1000);
    } catch (err) {
      scheduleError = err instanceof Error ? err.message : String(err);
    }
  }
  const lastSuccess = run?.lastSuccessAt ?? null;
  // Never succeeded counts as stale once a run has finished (the stalled-job alert fires on the same).
  const stale =
    job.enabled &&
    intervalSeconds !== null &&
    run !== null &&
    (lastSuccess === null ? run.lastFinishAt !== null : now - lastSuccess > 3 * intervalSeconds * 1000);
  const liveLease =
    lease && lease.expiresAt > now
      ? { holder: lease.holder, host: lease.host, pid: lease.pid, expiresAt: iso(lease.expiresAt)! }
      : null;
  return {
    name: job.name,
    enabled: job.enabled,
    schedule: job.schedule,
    nextRunAt,
    intervalSeconds,
    lastStartAt: iso(run?.lastStartAt ?? null),
    lastFinishAt: iso(run?.lastFinishAt ?? null),
    lastSuccessAt: iso(lastSuccess),
    lastOutcome: run?.lastOutcome ?? null,
    state,
    runningSeconds,
    stale,
    lease: liveLease,
    ...(scheduleError ? { scheduleError } : {}),
  };
}

/** Where the configuration `status` was given differs from what the running daemon schedules. */
function configDiffers(options: StatusOptions, daemon: DaemonRecord): string[] {
  const out: string[] = [];
  if (options.timezone !== daemon.timezone)
    out.push(`timezone: ${options.timezone} here, ${daemon.timezone} in the daemon`);
  for (const job of options.jobs) {
    if (job.schedule === null) continue;
    const scheduled = daemon.jobs[job.name];
    if (job.enabled && !scheduled) out.push(`${job.name}.enabled: true here, the daemon does not run ${job.name}`);
    else if (!job.enabled && scheduled) out.push(`${job.name}.enabled: false here, the daemon runs ${job.name}`);
    else if (scheduled && scheduled.schedule !== job.schedule)
      out.push(`${job.name}.schedule: ${job.schedule} here, ${scheduled.schedule} in the daemon`);
  }
  return out;
}
