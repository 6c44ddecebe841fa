import { composeStore } from '../compose.js';
import { isStateError, StateError } from '../errors.js';
import type { GoldenBuildStore } from '../golden-records.js';
import { defaultIsProcessAlive } from '../sqlite.js';
import type { StateHealth, StateStore } from '../types.js';
import { createDb, type Db, type PostgresTls } from './db.js';
import { asPostgresStateError } from './errors.js';
import { postgresExperimentHistory } from './experiment-history.js';
import { postgresFacts } from './facts.js';
import { postgresReports } from './reports.js';
import { postgresGoldenStore } from './golden-builds.js';
import { postgresJobRuns } from './job-runs.js';
import { postgresLeases } from './leases.js';
import { postgresLedger } from './ledger.js';
import { migratePostgres } from './migrations.js';
import { maskPostgresUrl, withoutPassword } from './url.js';
import { schemaNameProblem } from './schema-name.js';

export interface PostgresStateOptions {
  /** `postgres://user:password@host:port/database?sslmode=…`; never shown unmasked. */
  url: string;
  /** Schema holding ragwatch's tables (created when missing). */
  schema?: string;
  poolSize?: number;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  tls?: PostgresTls;
  isProcessAlive?: (pid: number) => boolean;
  attemptRetentionMs?: number;
}

/** A PostgreSQL store and the query runner under it (the bench counts its round trips). */
export interface PostgresState extends StateStore {
  readonly db: Db;
  /** The golden-set builder's state on the same pool. */
  golden(): GoldenBuildStore;
}

/**
 * The shared state store: ragwatch's tables in one schema of a PostgreSQL database, reached through a pool.
 * Opening migrates the schema under an advisory lock; it refuses, with a `StateError` naming `state.url` (the
 * URL masked), a server that does not answer or refuses the role, a schema of something else or of a newer
 * ragwatch. Every later failure surfaces as a `StateError` too (`unreachable`, `timeout`, ...).
 */
export async function openPostgresState(options: PostgresStateOptions): Promise<PostgresState> {
  const location = maskPostgresUrl(options.url);
  const schema = options.schema ?? 'ragwatch';
  const schemaProblem = schemaNameProblem(schema);
  if (schemaProblem) throw new Error(`state.schema: ${schemaProblem}`);
  const convert = (err: unknown) => scrub(asPostgresStateError(err, location), options.url);
  const db = createDb({
    url: options.url,
    schema,
    poolSize: options.poolSize ?? 5,
    statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    tls: options.tls ?? { mode: 'url' },
  });
  try {
    const client = await db.pool.connect();
    try {
      const check = await migratePostgres(client, schema);
      if (!check.ok)
        throw new StateError(
          location,
          check.kind,
          check.kind === 'newer_schema' ? `schema ${check.version}` : undefined,
        );
    } finally {
      client.release();
    }
  } catch (err) {
    await db.pool.end().catch(() => {});
    throw convert(err);
  }
  const roles = {
    ledger: postgresLedger(db, options.attemptRetentionMs ?? 2 * 3600_000),
    leases: postgresLeases(db, options.isProcessAlive ?? defaultIsProcessAlive),
    jobRuns: postgresJobRuns(db),
    history: postgresExperimentHistory(db),
    reports: postgresReports(db),
    facts: postgresFacts(db),
  };
  const store = composeStore(roles, postgresConnection(db, location, convert), convert) as PostgresState;
  Object.defineProperty(store, 'db', { value: db });
  Object.defineProperty(store, 'golden', { value: () => postgresGoldenStore(db) });
  return store;
}

/** A driver message can quote the connection string: never let the password through. */
function scrub(err: unknown, url: string): unknown {
  if (err instanceof Error && !isStateError(err)) err.message = withoutPassword(err.message, url);
  return err;
}

/** Write failures the server's answering again clears: the connection, not the data, was in the way. */
const TRANSIENT = new Set(['unreachable', 'timeout', 'busy']);

function postgresConnection(db: Db, location: string, convert: (err: unknown) => unknown) {
  let closed = false;
  const ping = async () => {
    await db.query('SELECT 1');
  };
  return {
    location,
    // Replicas on several hosts share one database: every claim holds, whoever made it.
    shared: true,
    async ping() {
      if (closed) return false;
      try {
        await ping();
        return true;
      } catch {
        return false;
      }
    },
    async health(lastWriteError: StateError | null): Promise<StateHealth> {
      if (closed) return { ok: false, problem: new StateError(location, 'closed') };
      try {
        await ping();
      } catch (err) {
        const converted = convert(err);
        return {
          ok: false,
          problem: isStateError(converted)
            ? converted
            : new StateError(location, 'unreachable', undefined, String(err)),
        };
      }
      if (lastWriteError && !TRANSIENT.has(lastWriteError.kind)) return { ok: false, problem: lastWriteError };
      return { ok: true };
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.pool.end();
    },
  };
}
