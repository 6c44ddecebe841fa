import { existsSync } from 'node:fs';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { asStateError, isStateError, StateError } from '../errors.js';
import { checkBeforeOpen, checkSchema } from '../file-check.js';

/**
 * A read-only connection to the SQLite state file, for operators' commands (`ragwatch status`, dry runs).
 * WAL lets it read while a daemon writes: it never takes a write lock, never migrates, never creates the
 * file. Queries built on it tolerate older schemas (tables a later migration adds may be missing).
 */
export interface ReadOnlyState {
  readonly db: Database;
  readonly path: string;
  /** `PRAGMA user_version`: 0 for a file no ragwatch has initialised yet. */
  readonly schemaVersion: number;
  hasTable(name: string): boolean;
  close(): void;
}

/** The state file exists but cannot be read as ragwatch state: a `StateError` (kept under its old name). */
export const StateUnreadableError = StateError;

/**
 * Opens the file read-only; null when it does not exist (nothing has run yet). A file that cannot be
 * ragwatch's state is refused with the same `StateError` the writer gives (empty, not SQLite, damaged,
 * another database, a newer schema).
 */
export function openStateReadOnly(path: string, options: { busyTimeoutMs?: number } = {}): ReadOnlyState | null {
  if (!existsSync(path)) return null;
  checkBeforeOpen(path);
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw stateErrorOf(err, path);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const schemaVersion = checkSchema(db, path);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    return {
      db,
      path,
      schemaVersion,
      hasTable: (name) => tables.has(name),
      close: () => db.close(),
    };
  } catch (err) {
    db.close();
    throw stateErrorOf(err, path);
  }
}

function stateErrorOf(err: unknown, path: string): StateError {
  const converted = asStateError(err, path);
  return isStateError(converted)
    ? converted
    : new StateError(path, 'io', undefined, err instanceof Error ? err.message : String(err));
}
