import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { composeStore } from './compose.js';
import { asStateError, isStateError, StateError } from './errors.js';
import {
  checkBeforeOpen,
  checkSchema,
  identityOf,
  identityProblem,
  probeWritable,
  type FileIdentity,
} from './file-check.js';
import { migrate } from './migrations.js';
import { sqliteExperimentHistory } from './sqlite/experiment-history.js';
import { sqliteFacts } from './sqlite/facts.js';
import { sqliteReports } from './sqlite/reports.js';
import { sqliteJobRuns } from './sqlite/job-runs.js';
import { sqliteLeases } from './sqlite/leases.js';
import { sqliteLedger } from './sqlite/ledger.js';
import type { StateHealth, StateStore } from './types.js';

export interface SqliteStateOptions {
  /** File path, or `:memory:` for tests. */
  path: string;
  /** Whether a process on this host is still running; injectable for tests. */
  isProcessAlive?: (pid: number) => boolean;
  /** Attempt records older than this are pruned (they only feed the per-hour cap). */
  attemptRetentionMs?: number;
  /**
   * Act as a store replicas share (every claim holds, whoever made it): tests of work sharing on one host.
   * Default false: one lease holder works, and another holder's claim is a dead process's leftover.
   */
  shared?: boolean;
  /** Sees the connection once it is set up (tests: a page limit that makes SQLite answer SQLITE_FULL). */
  configure?: (db: Database) => void;
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
  const roles = {
    ledger: sqliteLedger(db, options.attemptRetentionMs ?? 2 * 3600_000, options.shared ?? false),
    leases: sqliteLeases(db, options.isProcessAlive ?? defaultIsProcessAlive),
    jobRuns: sqliteJobRuns(db),
    history: sqliteExperimentHistory(db),
    reports: sqliteReports(db),
    facts: sqliteFacts(db),
  };
  const connection = sqliteConnection(db, location, identity, options.shared ?? false);
  return composeStore(roles, connection, (err) => asStateError(err, location));
}

function sqliteConnection(db: Database, location: string, identity: FileIdentity | null, shared: boolean) {
  const ping = db.prepare('SELECT 1 AS ok');
  let closed = false;
  return {
    location,
    shared,
    async ping() {
      if (closed) return false;
      try {
        return (ping.get() as { ok: number }).ok === 1;
      } catch {
        return false;
      }
    },
    async health(lastWriteError: StateError | null): Promise<StateHealth> {
      if (closed) return { ok: false, problem: new StateError(location, 'closed') };
      const moved = identity ? identityProblem(location, identity) : null;
      if (moved) return { ok: false, problem: moved };
      if (lastWriteError) return { ok: false, problem: lastWriteError };
      try {
        ping.get();
        return { ok: true };
      } catch (err) {
        const converted = asStateError(err, location);
        return {
          ok: false,
          problem: isStateError(converted) ? converted : new StateError(location, 'io', undefined, String(err)),
        };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
