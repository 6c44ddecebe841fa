import { existsSync } from 'node:fs';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { SCHEMA_VERSION } from '../migrations.js';

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

/** The state file exists but cannot be read as ragwatch state. */
export class StateUnreadableError extends Error {
  override readonly name = 'StateUnreadableError';
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`state file ${path} cannot be read: ${detail}`);
  }
}

const RAGWATCH_TABLES = ['ledger', 'job_runs', 'cursors'];

/** Opens the file read-only; null when it does not exist (nothing has run yet). */
export function openStateReadOnly(path: string, options: { busyTimeoutMs?: number } = {}): ReadOnlyState | null {
  if (!existsSync(path)) return null;
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new StateUnreadableError(path, describe(err));
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    if (schemaVersion > SCHEMA_VERSION) {
      throw new StateUnreadableError(path, `it was written by a newer ragwatch (schema ${schemaVersion}, this one knows up to ${SCHEMA_VERSION}); upgrade ragwatch`);
    }
    if (schemaVersion === 0 && tables.size > 0) throw new StateUnreadableError(path, 'it is an SQLite database but not a ragwatch state file');
    if (schemaVersion > 0) {
      const missing = RAGWATCH_TABLES.filter((t) => !tables.has(t));
      if (missing.length > 0) throw new StateUnreadableError(path, `tables missing: ${missing.join(', ')}`);
    }
    return {
      db,
      path,
      schemaVersion,
      hasTable: (name) => tables.has(name),
      close: () => db.close(),
    };
  } catch (err) {
    db.close();
    if (err instanceof StateUnreadableError) throw err;
    throw new StateUnreadableError(path, describe(err));
  }
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
