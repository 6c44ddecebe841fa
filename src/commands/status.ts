import { hostname } from 'node:os';
import type { Command } from 'commander';
import type { RagwatchConfig } from '../config/index.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { BACKFILL_JOB, ONLINE_JOB } from '../online/index.js';
import { EXPERIMENT_JOB, stateFailureExit, withStatePathFrom } from '../service/index.js';
import {
  DAY_BASES,
  type DayBasis,
  isStateError,
  openStateReadOnly,
  type ReadOnlyState,
  buildStatusReport,
  type JobDescriptor,
  type JobStatus,
  type StatusReport,
  shortDuration,
  textTable,
  timeFromNow,
  utcTime,
  maskPostgresUrl,
  LEDGER_STATUSES,
  defaultIsProcessAlive,
} from '../state/index.js';
import { requireConfig, type CommandContext } from './context.js';

interface StatusOptions {
  days: string;
  by: string;
  json?: boolean;
}

const MAX_DAYS = 3660;

const JSON_HELP = `
A day is a UTC day: of the trace's first sampling (--by sampled), or of its own timestamp (--by trace).
The counts of a day are the traces of that day in the status they have now.

--json prints (times ISO 8601 UTC; "version" changes only when a field changes meaning or goes away):
  { version: 1, generatedAt, state: { path, exists, schemaVersion },
    days: { basis, from, to, rows: [ { day, sampled, pending, done, skipped, failed, dead, skippedByReason: { reason: n } } ] },
    totals: { entries, pending, done, skipped, failed, dead, skippedByReason, deadByError, failedByError },
    skipsByTraceName: { basis, rows: [ { traceName, sampled, skipped, skippedByReason } ], others: { names, sampled, skipped, skippedByReason } | null },
    dead: { count, shown: [ { traceId, attempts, lastError, diedAt, traceTimestamp } ] },
    failing: { count, shown: [ { traceId, attempts, lastError, nextAttemptAt, traceTimestamp } ] },
    daemon: { host, pid, startedAt, stoppedAt, running, timezone, recordedAt, differs: [ line ] } | null  (its schedules while it runs)
    jobs: [ { name, enabled, schedule, nextRunAt, intervalSeconds, lastStartAt, lastFinishAt, lastSuccessAt, lastOutcome,
              state: never_run|idle|running|stuck|interrupted, runningSeconds, stale, lease: { holder, host, pid, expiresAt } | null } ],
    timezone, cursors: [ { job, position, updatedAt, lagSeconds } ],
    langfuse: { configured, apiGeneration: v3|v4|null, source: detected|configured|null, recordedAt }, gauges: { name: value } }`;
/** The weekly experiment has no limit of its own in the config; a run this long is certainly stuck. */
const EXPERIMENT_STUCK_AFTER_MS = 12 * 3600_000;

export function registerStatusCommand(program: Command, ctx: CommandContext): void {
  program
    .command('status')
    .description(
      'show the ledger by day, the last and next run of each job and the detected Langfuse API generation (reads the state file; safe beside a running daemon)',
    )
    .option('--days <n>', 'how many UTC days the ledger table covers, ending today', '7')
    .option(
      '--by <basis>',
      'what puts a trace on a day: "sampled" (the day ragwatch first sampled it) or "trace" (the trace\'s own timestamp)',
      'sampled',
    )
    .option('--json', 'print the report as JSON (versioned shape below)')
    .addHelpText('after', JSON_HELP)
    .action(async (options: StatusOptions, command: Command) => {
      const days = parseDays(options.days);
      const basis = parseBasis(options.by);
      const config = withStatePathFrom(requireConfig(command, ctx), ctx.cwd);
      const now = Date.now();
      const state = await openForStatus(config);
      const where = config.state.url ? maskPostgresUrl(config.state.url) : config.state.path;
      let report: StatusReport;
      try {
        report = buildStatusReport(state, {
          path: where,
          now,
          days,
          basis,
          timezone: config.timezone,
          jobs: jobCatalogue(config),
          langfuseSetting: config.langfuse.apiGeneration,
          host: hostname(),
          isProcessAlive: defaultIsProcessAlive,
        });
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new CliExit(ExitCode.incomplete, [`status: reading ${where} failed: ${why}`]);
      } finally {
        state?.close();
      }
      ctx.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report, now));
    });
}

function parseDays(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 1 || n > MAX_DAYS) {
    throw new CliExit(ExitCode.badInput, [
      `status: --days must be a whole number from 1 to ${MAX_DAYS} (got ${JSON.stringify(text)})`,
    ]);
  }
  return n;
}

function parseBasis(text: string): DayBasis {
  if (!(DAY_BASES as readonly string[]).includes(text))
    throw new CliExit(ExitCode.badInput, [
      `status: --by must be one of ${DAY_BASES.join(', ')} (got ${JSON.stringify(text)})`,
    ]);
  return text as DayBasis;
}

async function openForStatus(config: RagwatchConfig): Promise<ReadOnlyState | null> {
  const { path, url } = config.state;
  if (!url && path === ':memory:') return null;
  try {
    if (url) {
      const { openPostgresReadOnly } = await import('../state/postgres/index.js');
      const s = config.state;
      return await openPostgresReadOnly({ url, schema: s.schema, connectTimeoutMs: s.connectTimeoutMs, tls: s.tls });
    }
    return openStateReadOnly(path);
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    throw err;
  }
}

/** The jobs the daemon schedules from this configuration, and the leases their runs hold. */
export function jobCatalogue(config: RagwatchConfig): JobDescriptor[] {
  return [
    {
      name: ONLINE_JOB,
      enabled: config.online.enabled,
      schedule: config.online.schedule,
      lease: 'online-tick',
      stuckAfterMs: config.online.stuckAfterSeconds * 1000,
    },
    {
      name: EXPERIMENT_JOB,
      enabled: config.experiment.enabled,
      schedule: config.experiment.schedule,
      lease: null,
      stuckAfterMs: EXPERIMENT_STUCK_AFTER_MS,
    },
    {
      name: BACKFILL_JOB,
      enabled: true,
      schedule: null,
      lease: 'online-backfill',
      stuckAfterMs: Number.POSITIVE_INFINITY,
      onlyIfRun: true,
    },
  ];
}

export function formatStatus(report: StatusReport, now: number): string {
  const out: string[] = [];
  if (!report.state.exists) {
    out.push(
      report.state.path === ':memory:'
        ? 'no runs to show: state.path is :memory:, so nothing is kept between runs'
        : `no runs yet: ${report.state.path} does not exist (ragwatch run or ragwatch sample creates it)`,
    );
  } else {
    out.push(`state: ${report.state.path} (schema ${report.state.schemaVersion})`);
    out.push(`langfuse api: ${langfuseLine(report, now)}`);
    out.push('', ...ledgerSection(report), ...skipsSection(report), '', ...nowSection(report));
    if (report.failing.count > 0) out.push('', ...failingSection(report, now));
    if (report.dead.count > 0) out.push('', ...deadSection(report, now));
  }
  out.push('', ...jobsSection(report, now));
  for (const c of report.cursors)
    out.push(`cursor ${c.job}: ${utcTime(c.position)} (${shortDuration(c.lagSeconds)} behind now)`);
  const gauges = Object.entries(report.gauges);
  if (gauges.length > 0)
    out.push(`means of the last tick that scored: ${gauges.map(([name, v]) => `${name} ${v.toFixed(3)}`).join(', ')}`);
  return `${out.join('\n')}\n`;
}

function langfuseLine(report: StatusReport, now: number): string {
  const l = report.langfuse;
  const setting = `langfuse.apiGeneration: ${l.configured}`;
  if (!l.apiGeneration) return `not recorded yet (${setting}; recorded when the daemon or sample connects)`;
  return `${l.apiGeneration}, ${l.source} ${timeFromNow(l.recordedAt, now)} (${setting})`;
}

function ledgerSection(report: StatusReport): string[] {
  const { rows, basis } = report.days;
  const counts = ['sampled', ...LEDGER_STATUSES] as const;
  const sum = (key: (typeof counts)[number]) => rows.reduce((n, r) => n + r[key], 0);
  const body = rows.map((r) => [r.day, ...counts.map((k) => String(r[k]))]);
  body.push([`${rows.length} days`, ...counts.map((k) => String(sum(k)))]);
  const title =
    basis === 'sampled' ? 'ledger by UTC day of first sampling' : 'ledger by UTC day of the trace timestamp';
  const out = [
    `${title} (status now of the traces of each day)`,
    ...textTable(['day', ...counts], body, ['left', ...counts.map(() => 'right' as const)]),
  ];
  const reasons = rows.flatMap((r) =>
    Object.entries(r.skippedByReason).map(([reason, n]) => ({ day: r.day, reason, n })),
  );
  if (reasons.length > 0) {
    reasons.sort((a, b) => a.day.localeCompare(b.day) || b.n - a.n || a.reason.localeCompare(b.reason));
    out.push(
      '',
      'skipped by reason',
      ...textTable(
        ['day', 'reason', 'skipped'],
        reasons.map((r) => [r.day, r.reason, String(r.n)]),
        ['left', 'left', 'right'],
      ),
    );
  }
  return out;
}

/** Skips per trace name over the window: a name whose traces are suddenly `not_rag` stands out. */
function skipsSection(report: StatusReport): string[] {
  const { rows, others } = report.skipsByTraceName;
  if (rows.length === 0) return [];
  const share = (skipped: number, sampled: number) => `${Math.round((100 * skipped) / Math.max(1, sampled))}%`;
  const body = rows.map((r) => [
    r.traceName ?? '(no name)',
    String(r.sampled),
    String(r.skipped),
    share(r.skipped, r.sampled),
    breakdown(r.skippedByReason),
  ]);
  if (others)
    body.push([
      `(${others.names} other names)`,
      String(others.sampled),
      String(others.skipped),
      share(others.skipped, others.sampled),
      breakdown(others.skippedByReason),
    ]);
  return [
    '',
    `skipped by trace name, same ${report.days.rows.length} days (ragwatch extract --trace ID shows why one trace is skipped)`,
    ...textTable(['trace name', 'sampled', 'skipped', 'share', 'reasons'], body, [
      'left',
      'right',
      'right',
      'right',
      'left',
    ]),
  ];
}

function breakdown(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

function nowSection(report: StatusReport): string[] {
  const t = report.totals;
  const detail: Record<string, string> = {
    skipped: breakdown(t.skippedByReason),
    failed: breakdown(t.failedByError),
    dead: breakdown(t.deadByError),
  };
  const rows = LEDGER_STATUSES.map((s) => [s, String(t[s]), detail[s] ?? '']);
  return [
    `ledger now, all days: ${t.entries} entries`,
    ...textTable(['status', 'entries', 'detail'], rows, ['left', 'right', 'left']),
  ];
}

function deadSection(report: StatusReport, now: number): string[] {
  const { count, shown } = report.dead;
  const rows = shown.map((d) => [d.traceId, String(d.attempts), d.lastError ?? '-', timeFromNow(d.diedAt, now)]);
  return [
    `dead traces, most recent first (${shown.length} of ${count}); ragwatch retry-dead re-queues them`,
    ...textTable(['trace id', 'attempts', 'last error', 'dead since'], rows, ['left', 'right', 'left', 'left']),
  ];
}

function failingSection(report: StatusReport, now: number): string[] {
  const { count, shown } = report.failing;
  const rows = shown.map((f) => [
    f.traceId,
    String(f.attempts),
    f.lastError ?? '-',
    f.nextAttemptAt ? timeFromNow(f.nextAttemptAt, now) : '-',
  ]);
  return [
    `failing traces, retried before they go dead (${shown.length} of ${count}), most recent first`,
    ...textTable(['trace id', 'attempts', 'last error', 'next attempt'], rows, ['left', 'right', 'left', 'left']),
  ];
}

function jobState(job: JobStatus): string {
  if (!job.enabled) return 'disabled';
  const flags: string[] = [];
  if (job.state === 'running')
    flags.push(
      `running ${shortDuration(job.runningSeconds ?? 0)}${job.lease ? ` (pid ${job.lease.pid} on ${job.lease.host})` : ''}`,
    );
  else if (job.state === 'stuck')
    flags.push(
      `STUCK: running ${shortDuration(job.runningSeconds ?? 0)}${job.lease ? ` (pid ${job.lease.pid} on ${job.lease.host})` : ''}`,
    );
  else if (job.state === 'interrupted')
    flags.push(`interrupted ${shortDuration(job.runningSeconds ?? 0)} ago (its process stopped mid-run)`);
  else flags.push(job.state === 'never_run' ? 'never run' : 'idle');
  if (job.stale) flags.push('STALE: no success for 3 intervals');
  return flags.join('; ');
}

/** Whose schedule the jobs table shows: the running daemon's, and where the configuration given differs. */
function daemonLines(report: StatusReport, now: number): string[] {
  const d = report.daemon;
  if (!d) return ['daemon: none has recorded itself in this state yet; schedules and next runs from the configuration'];
  const who = `${d.host} (pid ${d.pid})`;
  if (!d.running) {
    const ended = d.stoppedAt
      ? `stopped ${timeFromNow(d.stoppedAt, now)}`
      : 'no longer running (it did not stop cleanly)';
    return [`daemon: the last one, on ${who}, ${ended}; schedules and next runs from the configuration`];
  }
  const lines = [
    `daemon: running on ${who} since ${timeFromNow(d.startedAt, now)}; schedules and next runs as it recorded them`,
  ];
  if (d.differs.length > 0) {
    lines.push('  the configuration given here differs from the running daemon (restart it to apply the change):');
    for (const line of d.differs) lines.push(`    ${line}`);
  }
  return lines;
}

function jobsSection(report: StatusReport, now: number): string[] {
  const rows = report.jobs.map((j) => [
    j.name,
    j.schedule ?? 'by hand',
    jobState(j),
    timeFromNow(j.lastStartAt, now),
    j.lastOutcome ?? '-',
    timeFromNow(j.lastSuccessAt, now),
    j.scheduleError ? `invalid schedule: ${j.scheduleError}` : timeFromNow(j.nextRunAt, now),
  ]);
  return [
    ...daemonLines(report, now),
    `jobs (schedules read in ${report.timezone}; times UTC)`,
    ...textTable(['job', 'schedule', 'state', 'last start', 'last outcome', 'last success', 'next run'], rows),
  ];
}
