/**
 * What can be wrong with the state, said once for every command: the same file or server gives the same line
 * and the same exit code whether `run`, `sample`, `status` or `retry-dead` meets it. Messages name the key
 * (`state.path`, or `state.url` for PostgreSQL), the path or the masked URL and the backend's code, never a
 * row's content.
 */
import { DependencyError } from '../errors.js';

export type StateErrorKind =
  /** A 0-byte file: a failed copy or restore, not something ragwatch wrote. */
  | 'empty'
  | 'not_a_database'
  | 'corrupt'
  /** An SQLite database of something else. */
  | 'not_ragwatch'
  | 'newer_schema'
  /** The file or its directory (for -wal and -shm) cannot be written. */
  | 'readonly'
  | 'cantopen'
  | 'full'
  | 'io'
  | 'busy'
  /** The path no longer names the file the process has open. */
  | 'deleted'
  | 'replaced'
  | 'closed'
  /** PostgreSQL: the server does not answer (refused, reset, DNS, TLS handshake, connect timeout). */
  | 'unreachable'
  /** PostgreSQL: the server refused the role or its password. */
  | 'auth'
  /** PostgreSQL: the role may not use the schema or its tables. */
  | 'permission'
  /** PostgreSQL: a statement ran past `state.statementTimeoutMs`. */
  | 'timeout'
  /**
   * PostgreSQL: the TLS setting does not match the server (TLS asked of a server without it, a certificate not
   * trusted, a server that requires TLS asked without it). Configuration: retrying cannot help.
   */
  | 'tls';

/** Kinds that retrying cannot fix: the file or its place is wrong (exit 2). The others are the disk's (exit 3). */
const INPUT_KINDS: ReadonlySet<StateErrorKind> = new Set([
  'empty',
  'not_a_database',
  'corrupt',
  'not_ragwatch',
  'newer_schema',
  'readonly',
  'cantopen',
  'auth',
  'permission',
  'tls',
]);

const ADVICE: Record<StateErrorKind, string> = {
  empty:
    'is empty (0 bytes), so not a state file ragwatch wrote (a failed copy or restore?); restore a backup, or delete it to start afresh',
  not_a_database: 'is not an SQLite database; restore a backup or point state.path at another file',
  corrupt: 'is damaged; restore a backup (docs/operations.md, "Backing up the state file")',
  not_ragwatch: 'is an SQLite database but not a ragwatch state file; point state.path at another file',
  newer_schema: 'was written by a newer ragwatch; upgrade ragwatch',
  readonly:
    "cannot be written: ragwatch writes the file and, beside it, its -wal and -shm files; check their and the directory's ownership and permissions",
  cantopen: 'cannot be opened: check that the path is a file in a directory ragwatch can write',
  full: 'cannot be written: the disk is full; free space on its volume (ragwatch retries on the next tick)',
  io: 'cannot be read or written: the disk reports an I/O error',
  busy: 'is locked by another process for too long',
  deleted:
    'was deleted while ragwatch runs: writes would go to a file nobody reads again; restart ragwatch (it starts a new file) or restore the file and restart',
  replaced:
    'was replaced by another file while ragwatch runs: ragwatch still has the old one open; restart ragwatch to use the new file',
  closed: 'is closed',
  unreachable: 'does not answer (PostgreSQL unreachable)',
  auth: 'refused the connection: check the role and its password',
  permission: 'refused access: the role needs USAGE and CREATE on the schema (docs/operations.md)',
  timeout: 'did not answer within state.statementTimeoutMs',
  tls: "does not match the TLS setting (the URL's sslmode, state.tls)",
};

/** The same kinds as said of a PostgreSQL schema rather than a file. */
const POSTGRES_ADVICE: Partial<Record<StateErrorKind, string>> = {
  not_ragwatch: 'has tables in the schema but is not ragwatch state; set state.schema to another schema',
  corrupt: 'has a ragwatch schema with tables missing; restore a backup',
  readonly: 'cannot be written (a read-only server or transaction); point state.url at the primary',
  full: 'cannot be written: the server is out of disk space',
  io: 'cannot be read or written: the server reports an I/O error',
  busy: 'is locked by another session for too long',
};

const POSTGRES_LOCATION = /^postgres(ql)?:\/\//;

export class StateError extends DependencyError {
  readonly dependency = 'state' as const;
  declare readonly kind: StateErrorKind;

  constructor(
    readonly path: string,
    kind: StateErrorKind,
    /** SQLite's or the system's code (`SQLITE_FULL`, `ENOENT`), when there is one. */
    readonly code?: string,
    /** SQLite's own message (`database or disk is full`): safe to log, it never quotes data. */
    readonly detail?: string,
  ) {
    const postgres = POSTGRES_LOCATION.test(path);
    super(
      lineOf(postgres ? 'state.url' : 'state.path', path, kind, code, detail),
      kind,
      undefined,
      !INPUT_KINDS.has(kind),
    );
  }

  /** The same line said of the option the location came from (`--from` of `state migrate`) instead of the key. */
  lineFor(option: string): string {
    return lineOf(option, this.path, this.kind, this.code, this.detail);
  }

  /** A state problem is never a trace's: it ends the tick (input problems exit 2, the rest 3). */
  override get outage(): boolean {
    return true;
  }

  /** Retrying cannot help: a configuration or input problem (exit 2). Otherwise the disk is in the way (exit 3). */
  get isInput(): boolean {
    return INPUT_KINDS.has(this.kind);
  }

  /** A short code for logs, ledgers and tick reports: `state:full`, `state:replaced`, ... */
  get shortCode(): string {
    return `state:${this.kind}`;
  }
}

function lineOf(
  key: string,
  path: string,
  kind: StateErrorKind,
  code: string | undefined,
  detail: string | undefined,
): string {
  const advice = (POSTGRES_LOCATION.test(path) ? POSTGRES_ADVICE[kind] : undefined) ?? ADVICE[kind];
  // What the server or the TLS layer said is the whole point of a TLS mismatch (it names no data).
  const reason = kind === 'tls' && detail ? `: ${detail}` : '';
  return `${key}: ${path} ${advice}${reason}${code ? ` (${code})` : ''}`;
}

export function isStateError(err: unknown): err is StateError {
  return err instanceof StateError;
}

/** SQLite's (or the file system's) error code as a kind. */
export function kindOfCode(code: string): StateErrorKind | null {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return 'readonly';
  if (code === 'SQLITE_NOTADB') return 'not_a_database';
  if (code.startsWith('SQLITE_CORRUPT')) return 'corrupt';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'EISDIR' || code === 'ENOTDIR') return 'cantopen';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'io';
  return null;
}

/** The StateError for whatever SQLite or the file system threw at `path`; other errors are returned as they are. */
export function asStateError(err: unknown, path: string): unknown {
  if (isStateError(err)) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  const kind = kindOfCode(code);
  return kind ? new StateError(path, kind, code, err instanceof Error ? err.message : undefined) : err;
}
