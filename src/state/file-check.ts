import { statSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import { asStateError, StateError } from './errors.js';
import { SCHEMA_VERSION } from './migrations.js';

/** Checks of the state file itself, shared by the writer (`sqlite.ts`) and the read-only view (`status`). */

/** Device and inode of the file a connection was opened on: tells a replaced or deleted path. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

const RAGWATCH_TABLES = ['ledger', 'job_runs', 'cursors'];

/** Refuses, before SQLite opens it (and would treat it as new), a path that exists but is empty or a directory. */
export function checkBeforeOpen(path: string): void {
  let size: number;
  let isFile: boolean;
  try {
    const st = statSync(path);
    size = st.size;
    isFile = st.isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw asStateError(err, path);
  }
  if (!isFile) throw new StateError(path, 'cantopen', 'EISDIR');
  if (size === 0) throw new StateError(path, 'empty');
}

export function identityOf(path: string): FileIdentity {
  const st = statSync(path);
  return { dev: st.dev, ino: st.ino };
}

/** Whether `path` still names the file opened as `opened`: null when it does. */
export function identityProblem(path: string, opened: FileIdentity): StateError | null {
  let now: FileIdentity;
  try {
    now = identityOf(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? new StateError(path, 'deleted', 'ENOENT') : (asStateError(err, path) as StateError);
  }
  return now.dev === opened.dev && now.ino === opened.ino ? null : new StateError(path, 'replaced');
}

/**
 * The schema version of an opened database, or a StateError: written by a newer ragwatch, or an SQLite
 * database of something else (tables but no version), or a ragwatch file missing its core tables.
 */
export function checkSchema(db: Database, path: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  if (version > SCHEMA_VERSION) throw new StateError(path, 'newer_schema', `schema ${version} > ${SCHEMA_VERSION}`);
  if (version === 0 && tables.size > 0) throw new StateError(path, 'not_ragwatch');
  if (version > 0 && RAGWATCH_TABLES.some((t) => !tables.has(t)))
    throw new StateError(path, 'corrupt', 'tables missing');
  return version;
}

/**
 * Whether the connection can write: SQLite opens a file it may not write read-only without a word, and the
 * first write then fails mid-run. A write that is rolled back at once finds that out at start-up.
 */
export function probeWritable(db: Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
  } finally {
    db.exec('ROLLBACK');
  }
}
