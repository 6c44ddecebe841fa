import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3, { type Database, type Statement, type Transaction } from 'better-sqlite3';
import { asStateError, isStateError, StateError } from './errors.js';
import { checkBeforeOpen, checkSchema, identityOf, identityProblem, probeWritable, type FileIdentity } from './file-check.js';
import { migrate } from './migrations.js';
import {
  LEDGER_STATUSES,
  type ExperimentRunRecord,
  type JobRun,
  type LeaseHolder,
  type LedgerEntry,
  type LedgerStatus,
  type NewLedgerEntry,
  type StateHealth,
  type StateStore,
} from './types.js';

export interface SqliteStateOptions {
  /** File path, or `:memory:` for tests. */
  path: string;
  /** Whether a process on this host is still running; injectable for tests. */
  isProcessAlive?: (pid: number) => boolean;
  /** Attempt records older than this are pruned (they only feed the per-hour cap). */
  attemptRetentionMs?: number;
  /** Sees the connection once it is set up (tests: a page limit that makes SQLite answer SQLITE_FULL). */
  configure?: (db: Database) => void;
}

interface LedgerRow {
  trace_id: string;
  status: LedgerStatus;
  reason: string | null;
  attempts: number;
  last_error: string | null;
  score_ids: string;
  trace_timestamp: number;
  environment: string | null;
  trace_name: string | null;
  sample_rate: number;
  first_seen_at: number;
  updated_at: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
}

function toEntry(row: LedgerRow): LedgerEntry {
  return {
    traceId: row.trace_id,
    status: row.status,
    reason: row.reason,
    attempts: row.attempts,
    lastError: row.last_error,
    scoreIds: row.score_ids === '[]' ? [] : (JSON.parse(row.score_ids) as string[]),
    traceTimestamp: row.trace_timestamp,
    environment: row.environment,
    traceName: row.trace_name,
    sampleRate: row.sample_rate,
    firstSeenAt: row.first_seen_at,
    updatedAt: row.updated_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
  };
}

export function defaultIsProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded state store: one SQLite file in WAL mode, safe for several processes on one host. Opening
 * refuses, with a `StateError`, a file that cannot be ragwatch's state (empty, not SQLite, damaged, some
 * other database, a newer schema) or cannot be written; every later SQLite error surfaces as a `StateError`.
 */
export function openSqliteState(options: SqliteStateOptions): StateStore {
  const location = options.path === ':memory:' ? ':memory:' : resolve(options.path);
  const onDisk = location !== ':memory:';
  let db: Database;
  try {
    if (onDisk) {
      mkdirSync(dirname(location), { recursive: true });
      checkBeforeOpen(location);
    }
    db = new BetterSqlite3(location);
  } catch (err) {
    throw asStateError(err, location);
  }
  let identity: FileIdentity | null = null;
  try {
    db.pragma('busy_timeout = 5000');
    // Before anything writes to it (WAL mode does): a file that is not ragwatch's stays as it is.
    checkSchema(db, location);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    if (onDisk) {
      probeWritable(db);
      identity = identityOf(location);
    }
    options.configure?.(db);
  } catch (err) {
    db.close();
    throw asStateError(err, location);
  }
  const state = new SqliteState(db, location, identity, options.isProcessAlive ?? defaultIsProcessAlive, options.attemptRetentionMs ?? 2 * 3600_000);
  return withStateErrors(state);
}

const WRITES: ReadonlySet<string> = new Set<keyof StateStore>([
  'setCursor', 'ensureEntry', 'startAttempt', 'markDone', 'markSkipped', 'markFailed', 'markDead', 'markPending',
  'recordJobStart', 'recordJobFinish', 'acquireLease', 'renewLease', 'releaseLease', 'recordExperimentRun',
  'requeueDead', 'setMeta', 'setGauges',
]);
const READS: ReadonlySet<string> = new Set<keyof StateStore>([
  'getCursor', 'getEntry', 'dueEntries', 'earliestPendingTimestamp', 'countByStatus', 'listByStatus', 'attemptsSince',
  'getJobRun', 'listExperimentRuns', 'getExperimentItemValues', 'getMeta', 'getGauges',
]);

/**
 * Every read and write turns SQLite's errors into `StateError`s (`state.path: … the disk is full (SQLITE_FULL)`).
 * A failed write is remembered for `health()` until a write goes through again. On a full disk updates in
 * place can succeed while inserts fail, so the daemon also keeps a failed run's state error until a whole run
 * gets through (`DependencyHealth`).
 */
function withStateErrors(state: SqliteState): StateStore {
  return new Proxy(state, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || typeof value !== 'function' || !(WRITES.has(prop) || READS.has(prop))) return value;
      const write = WRITES.has(prop);
      return async (...args: unknown[]) => {
        try {
          const out = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
          if (write) target.lastWriteError = null;
          return out;
        } catch (err) {
          const converted = asStateError(err, target.location);
          if (write && isStateError(converted)) target.lastWriteError = converted;
          throw converted;
        }
      };
    },
  });
}

const PRUNE_INTERVAL_MS = 60_000;

class SqliteState implements StateStore {
  private readonly stmt: Record<string, Statement>;
  private readonly startAttemptTx: Transaction<(traceId: string, now: number) => LedgerRow>;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** The last write that failed, until a write succeeds. */
  lastWriteError: StateError | null = null;

  constructor(
    private readonly db: Database,
    readonly location: string,
    private readonly identity: FileIdentity | null,
    private readonly isProcessAlive: (pid: number) => boolean,
    private readonly attemptRetentionMs: number,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.stmt = {
      getCursor: p('SELECT position FROM cursors WHERE job = ?'),
      setCursor: p('INSERT INTO cursors (job, position, updated_at) VALUES (?, ?, ?) ON CONFLICT (job) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at'),
      getEntry: p('SELECT * FROM ledger WHERE trace_id = ?'),
      // RETURNING hands back the new row (or the updated one) without a second statement. Such statements are
      // run with `all()`, never `get()`: `get()` stops at the first row, and an error at commit (SQLITE_FULL)
      // would then be dropped with the row already handed back, for a write that never happened.
      insertEntry: p(
        `INSERT INTO ledger (trace_id, status, trace_timestamp, environment, trace_name, sample_rate, first_seen_at, updated_at)
         VALUES (?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT (trace_id) DO NOTHING RETURNING *`,
      ),
      startAttempt: p("UPDATE ledger SET attempts = attempts + 1, last_attempt_at = ?, updated_at = ?, status = 'pending', next_attempt_at = NULL WHERE trace_id = ? RETURNING *"),
      recordAttempt: p('INSERT INTO attempts (trace_id, at) VALUES (?, ?)'),
      pruneAttempts: p('DELETE FROM attempts WHERE at < ?'),
      markDone: p("UPDATE ledger SET status = 'done', reason = NULL, last_error = NULL, score_ids = ?, next_attempt_at = NULL, updated_at = ? WHERE trace_id = ?"),
      markSkipped: p("UPDATE ledger SET status = 'skipped', reason = ?, next_attempt_at = NULL, updated_at = ? WHERE trace_id = ?"),
      markFailed: p("UPDATE ledger SET status = 'failed', last_error = ?, next_attempt_at = ?, updated_at = ? WHERE trace_id = ?"),
      markDead: p("UPDATE ledger SET status = 'dead', reason = ?, last_error = ?, next_attempt_at = NULL, updated_at = ? WHERE trace_id = ?"),
      markPending: p("UPDATE ledger SET status = 'pending', attempts = MAX(attempts - 1, 0), next_attempt_at = NULL, updated_at = ? WHERE trace_id = ?"),
      due: p(
        `SELECT * FROM ledger WHERE status = 'pending' OR (status = 'failed' AND next_attempt_at <= ?)
         ORDER BY trace_timestamp, trace_id LIMIT ?`,
      ),
      earliestPending: p("SELECT MIN(trace_timestamp) AS t FROM ledger WHERE status = 'pending'"),
      countByStatus: p('SELECT status, COUNT(*) AS n FROM ledger GROUP BY status'),
      listByStatus: p('SELECT * FROM ledger WHERE status = ? ORDER BY trace_timestamp, trace_id LIMIT ?'),
      attemptsSince: p('SELECT COUNT(*) AS n FROM attempts WHERE at >= ?'),
      getJobRun: p('SELECT * FROM job_runs WHERE job = ?'),
      jobStart: p('INSERT INTO job_runs (job, last_start_at) VALUES (?, ?) ON CONFLICT (job) DO UPDATE SET last_start_at = excluded.last_start_at'),
      jobFinish: p(
        `INSERT INTO job_runs (job, last_finish_at, last_outcome, last_success_at) VALUES (@job, @now, @outcome, @success)
         ON CONFLICT (job) DO UPDATE SET last_finish_at = excluded.last_finish_at, last_outcome = excluded.last_outcome,
           last_success_at = COALESCE(excluded.last_success_at, job_runs.last_success_at)`,
      ),
      getLease: p('SELECT * FROM leases WHERE name = ?'),
      putLease: p(
        `INSERT INTO leases (name, holder, host, pid, acquired_at, expires_at) VALUES (@name, @holder, @host, @pid, @now, @expires)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid,
           acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      ),
      renewLease: p('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?'),
      releaseLease: p('DELETE FROM leases WHERE name = ? AND holder = ?'),
      putExperimentRun: p(
        `INSERT INTO experiment_runs (dataset, run_name, dataset_run_id, started_at, finished_at, split, gate_passed, means)
         VALUES (@dataset, @runName, @datasetRunId, @startedAt, @finishedAt, @split, @gatePassed, @means)
         ON CONFLICT (dataset, run_name) DO UPDATE SET dataset_run_id = excluded.dataset_run_id, started_at = excluded.started_at,
           finished_at = excluded.finished_at, split = excluded.split, gate_passed = excluded.gate_passed, means = excluded.means`,
      ),
      clearExperimentValues: p('DELETE FROM experiment_item_values WHERE dataset = ? AND run_name = ?'),
      putExperimentValue: p('INSERT INTO experiment_item_values (dataset, run_name, item_id, metric, value) VALUES (?, ?, ?, ?, ?)'),
      listExperimentRuns: p('SELECT * FROM experiment_runs WHERE dataset = ? ORDER BY started_at DESC, run_name DESC LIMIT ?'),
      getExperimentValues: p('SELECT item_id, metric, value FROM experiment_item_values WHERE dataset = ? AND run_name = ?'),
      deadSince: p("SELECT trace_id FROM ledger WHERE status = 'dead' AND updated_at >= ? ORDER BY trace_timestamp, trace_id"),
      requeueDead: p("UPDATE ledger SET status = 'pending', attempts = 0, reason = NULL, next_attempt_at = ?, updated_at = ? WHERE status = 'dead' AND updated_at >= ?"),
      getMeta: p('SELECT value, updated_at FROM meta WHERE key = ?'),
      setMeta: p('INSERT INTO meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at'),
      getGauges: p('SELECT name, value FROM gauges'),
      setGauge: p('INSERT INTO gauges (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at'),
      ping: p('SELECT 1 AS ok'),
    };
    // One attempt: counted on the entry and recorded for the hourly cap, in one transaction (built once).
    this.startAttemptTx = db.transaction((traceId: string, now: number): LedgerRow => {
      const row = (this.stmt.startAttempt!.all(now, now, traceId) as LedgerRow[])[0];
      if (!row) throw new Error(`state: no ledger entry for trace ${traceId}`);
      this.stmt.recordAttempt!.run(traceId, now);
      // Old attempt records only take room (the cap counts the last hour): cleared once a minute, not per attempt.
      if (now - this.lastPrune >= PRUNE_INTERVAL_MS || now < this.lastPrune) {
        this.stmt.pruneAttempts!.run(now - this.attemptRetentionMs);
        this.lastPrune = now;
      }
      return row;
    });
  }

  private row(traceId: string): LedgerEntry | null {
    const row = this.stmt.getEntry!.get(traceId) as LedgerRow | undefined;
    return row ? toEntry(row) : null;
  }

  private required(traceId: string): LedgerEntry {
    const entry = this.row(traceId);
    if (!entry) throw new Error(`state: no ledger entry for trace ${traceId}`);
    return entry;
  }

  async getCursor(job: string) {
    const row = this.stmt.getCursor!.get(job) as { position: number } | undefined;
    return row ? row.position : null;
  }

  async setCursor(job: string, position: number, now: number) {
    this.stmt.setCursor!.run(job, position, now);
  }

  async getEntry(traceId: string) {
    return this.row(traceId);
  }

  async ensureEntry(entry: NewLedgerEntry, now: number) {
    const inserted = (this.stmt.insertEntry!.all(entry.traceId, entry.traceTimestamp, entry.environment, entry.traceName, entry.sampleRate, now, now) as LedgerRow[])[0];
    return inserted ? toEntry(inserted) : this.required(entry.traceId);
  }

  async startAttempt(traceId: string, now: number) {
    return toEntry(this.startAttemptTx.immediate(traceId, now));
  }

  async markDone(traceId: string, scoreIds: string[], now: number) {
    this.stmt.markDone!.run(JSON.stringify(scoreIds), now, traceId);
  }

  async markSkipped(traceId: string, reason: string, now: number) {
    this.stmt.markSkipped!.run(reason, now, traceId);
  }

  async markFailed(traceId: string, error: string, now: number, nextAttemptAt: number) {
    this.stmt.markFailed!.run(error, nextAttemptAt, now, traceId);
  }

  async markDead(traceId: string, error: string, now: number) {
    this.stmt.markDead!.run(error, error, now, traceId);
  }

  async markPending(traceId: string, now: number) {
    this.stmt.markPending!.run(now, traceId);
  }

  async dueEntries(now: number, limit: number) {
    return (this.stmt.due!.all(now, limit) as LedgerRow[]).map(toEntry);
  }

  async earliestPendingTimestamp() {
    const row = this.stmt.earliestPending!.get() as { t: number | null };
    return row.t;
  }

  async countByStatus() {
    const counts = Object.fromEntries(LEDGER_STATUSES.map((s) => [s, 0])) as Record<LedgerStatus, number>;
    for (const row of this.stmt.countByStatus!.all() as { status: LedgerStatus; n: number }[]) counts[row.status] = row.n;
    return counts;
  }

  async listByStatus(status: LedgerStatus, limit: number) {
    return (this.stmt.listByStatus!.all(status, limit) as LedgerRow[]).map(toEntry);
  }

  async attemptsSince(since: number) {
    return (this.stmt.attemptsSince!.get(since) as { n: number }).n;
  }

  async getJobRun(job: string): Promise<JobRun | null> {
    const row = this.stmt.getJobRun!.get(job) as
      | { job: string; last_start_at: number | null; last_success_at: number | null; last_finish_at: number | null; last_outcome: string | null }
      | undefined;
    if (!row) return null;
    return { job: row.job, lastStartAt: row.last_start_at, lastSuccessAt: row.last_success_at, lastFinishAt: row.last_finish_at, lastOutcome: row.last_outcome };
  }

  async recordJobStart(job: string, now: number) {
    this.stmt.jobStart!.run(job, now);
  }

  async recordJobFinish(job: string, outcome: string, succeeded: boolean, now: number) {
    this.stmt.jobFinish!.run({ job, now, outcome, success: succeeded ? now : null });
  }

  async acquireLease(name: string, holder: LeaseHolder, ttlMs: number, now: number) {
    return this.db
      .transaction(() => {
        const current = this.stmt.getLease!.get(name) as { holder: string; host: string; pid: number; expires_at: number } | undefined;
        const free =
          !current ||
          current.expires_at <= now ||
          current.holder === holder.id ||
          (current.host === holder.host && current.pid !== holder.pid && !this.isProcessAlive(current.pid));
        if (!free) return false;
        this.stmt.putLease!.run({ name, holder: holder.id, host: holder.host, pid: holder.pid, now, expires: now + ttlMs });
        return true;
      })
      .immediate();
  }

  async renewLease(name: string, holder: LeaseHolder, ttlMs: number, now: number) {
    return this.stmt.renewLease!.run(now + ttlMs, name, holder.id).changes > 0;
  }

  async releaseLease(name: string, holder: LeaseHolder) {
    this.stmt.releaseLease!.run(name, holder.id);
  }

  async recordExperimentRun(run: ExperimentRunRecord) {
    this.db.transaction(() => {
      this.stmt.putExperimentRun!.run({
        dataset: run.dataset,
        runName: run.runName,
        datasetRunId: run.datasetRunId,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        split: run.split,
        gatePassed: run.gatePassed ? 1 : 0,
        means: JSON.stringify(run.means),
      });
      this.stmt.clearExperimentValues!.run(run.dataset, run.runName);
      for (const [metric, values] of Object.entries(run.perItem)) {
        for (const [itemId, value] of Object.entries(values)) this.stmt.putExperimentValue!.run(run.dataset, run.runName, itemId, metric, value);
      }
    })();
  }

  async listExperimentRuns(dataset: string, limit: number) {
    const rows = this.stmt.listExperimentRuns!.all(dataset, limit) as Array<{
      dataset: string;
      run_name: string;
      dataset_run_id: string | null;
      started_at: number;
      finished_at: number;
      split: string;
      gate_passed: number;
      means: string;
    }>;
    return rows.map(
      (r): ExperimentRunRecord => ({
        dataset: r.dataset,
        runName: r.run_name,
        datasetRunId: r.dataset_run_id,
        startedAt: r.started_at,
        finishedAt: r.finished_at,
        split: r.split,
        gatePassed: r.gate_passed === 1,
        means: JSON.parse(r.means) as Record<string, number | null>,
        perItem: {},
      }),
    );
  }

  async getExperimentItemValues(dataset: string, runName: string) {
    const out: Record<string, Record<string, number>> = {};
    for (const row of this.stmt.getExperimentValues!.all(dataset, runName) as Array<{ item_id: string; metric: string; value: number }>) {
      (out[row.metric] ??= {})[row.item_id] = row.value;
    }
    return out;
  }

  async requeueDead(options: { diedSince?: number }, now: number) {
    return this.db
      .transaction(() => {
        const since = options.diedSince ?? Number.MIN_SAFE_INTEGER;
        // Same condition in one transaction under the write lock: the ids are exactly the rows updated.
        const ids = (this.stmt.deadSince!.all(since) as { trace_id: string }[]).map((r) => r.trace_id);
        this.stmt.requeueDead!.run(now, now, since);
        return ids;
      })
      .immediate();
  }

  async getMeta(key: string) {
    const row = this.stmt.getMeta!.get(key) as { value: string; updated_at: number } | undefined;
    return row ? { value: row.value, updatedAt: row.updated_at } : null;
  }

  async setMeta(key: string, value: string, now: number) {
    this.stmt.setMeta!.run(key, value, now);
  }

  async getGauges() {
    const out: Record<string, number> = {};
    for (const row of this.stmt.getGauges!.all() as { name: string; value: number }[]) out[row.name] = row.value;
    return out;
  }

  async setGauges(values: Record<string, number>, now: number) {
    this.db.transaction(() => {
      for (const [name, value] of Object.entries(values)) this.stmt.setGauge!.run(name, value, now);
    })();
  }

  async ping() {
    if (this.closed) return false;
    try {
      return (this.stmt.ping!.get() as { ok: number }).ok === 1;
    } catch {
      return false;
    }
  }

  async health(): Promise<StateHealth> {
    if (this.closed) return { ok: false, problem: new StateError(this.location, 'closed') };
    const moved = this.identity ? identityProblem(this.location, this.identity) : null;
    if (moved) return { ok: false, problem: moved };
    if (this.lastWriteError) return { ok: false, problem: this.lastWriteError };
    try {
      this.stmt.ping!.get();
      return { ok: true };
    } catch (err) {
      const converted = asStateError(err, this.location);
      return { ok: false, problem: isStateError(converted) ? converted : new StateError(this.location, 'io', undefined, String(err)) };
    }
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
