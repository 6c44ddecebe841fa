import type { PoolClient } from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { StateError } from '../errors.js';
import { migrate } from '../migrations.js';
import type { ReadOnlyState } from '../queries/read-only.js';
import { createDb, type PostgresTls } from './db.js';
import { asPostgresStateError } from './errors.js';
import { PG_SCHEMA_VERSION, schemaVersion } from './migrations.js';
import { maskPostgresUrl } from './url.js';

export interface PostgresReadOptions {
  url: string;
  schema: string;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  tls?: PostgresTls;
}

/** The tables `ragwatch status` reads, with the columns its queries use. */
const SNAPSHOT: ReadonlyArray<{ table: string; columns: string }> = [
  {
    table: 'ledger',
    columns:
      'trace_id, status, reason, attempts, last_error, trace_timestamp, trace_name, sample_rate, first_seen_at, ' +
      'updated_at, last_attempt_at, next_attempt_at',
  },
  { table: 'job_runs', columns: 'job, last_start_at, last_success_at, last_finish_at, last_outcome' },
  { table: 'leases', columns: 'name, holder, host, pid, acquired_at, expires_at' },
  { table: 'cursors', columns: 'job, position, updated_at' },
  { table: 'gauges', columns: 'name, value, updated_at' },
  { table: 'meta', columns: 'key, value, updated_at' },
];

/**
 * A read-only view of a PostgreSQL state for the operators' reports (`ragwatch status`): the tables the
 * report reads, copied in one repeatable-read transaction into an in-memory SQLite database, so the same
 * queries answer for both backends. Nothing is written and nothing is migrated; null when the schema does
 * not exist yet (nothing has run). The ledger's id and code columns are read in full: about a second per
 * few hundred thousand entries.
 */
export async function openPostgresReadOnly(options: PostgresReadOptions): Promise<ReadOnlyState | null> {
  const location = maskPostgresUrl(options.url);
  const db = oneConnection(options, 60_000);
  try {
    const client = await db.pool.connect();
    try {
      const check = await schemaVersion(client, options.schema);
      if (!check.ok) throw new StateError(location, check.kind, `schema ${check.version} > ${PG_SCHEMA_VERSION}`);
      if (check.version === 0) {
        // Nothing visible may still be something this role may not see: say so, as doctor does, not "no runs yet".
        if (await hiddenFromRole(client, options.schema)) throw new StateError(location, 'permission');
        return null;
      }
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = new BetterSqlite3(':memory:');
      migrate(snapshot);
      try {
        for (const { table, columns } of SNAPSHOT) {
          const rows = (await client.query({ text: `SELECT ${columns} FROM ${table}`, rowMode: 'array' })).rows;
          const names = columns.split(', ');
          const insert = snapshot.prepare(
            `INSERT INTO ${table} (${columns}) VALUES (${names.map(() => '?').join(', ')})`,
          );
          snapshot.transaction(() => {
            for (const row of rows as unknown[][]) insert.run(...row);
          })();
        }
      } catch (err) {
        snapshot.close();
        throw err;
      } finally {
        await client.query('COMMIT').catch(() => {});
      }
      return {
        db: snapshot,
        path: location,
        schemaVersion: check.version,
        hasTable: () => true,
        close: () => snapshot.close(),
      };
    } finally {
      client.release();
    }
  } catch (err) {
    throw asPostgresStateError(err, location);
  } finally {
    await db.pool.end().catch(() => {});
  }
}

/**
 * What `ragwatch doctor` says about a PostgreSQL state: the server answers the role, and the schema is
 * ragwatch's at a version this ragwatch reads and can be written (or can be created). Changes nothing.
 */
export async function probePostgres(
  options: PostgresReadOptions,
): Promise<{ ok: boolean; detail: string; configuration?: true }> {
  const location = maskPostgresUrl(options.url);
  const db = oneConnection(options, 10_000);
  try {
    const client = await db.pool.connect();
    try {
      const check = await schemaVersion(client, options.schema);
      if (!check.ok) return { ok: false, detail: new StateError(location, check.kind).message, configuration: true };
      const can = async (sql: string, params: unknown[]) =>
        ((await client.query<{ ok: boolean }>(sql, params)).rows[0]?.ok ?? false) === true;
      if (check.version === 0) {
        const exists = await can('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS ok', [
          options.schema,
        ]);
        const allowed = exists
          ? await can("SELECT has_schema_privilege($1, 'USAGE,CREATE') AS ok", [options.schema])
          : await can("SELECT has_database_privilege(current_database(), 'CREATE') AS ok", []);
        if (!allowed) return { ok: false, detail: new StateError(location, 'permission').message, configuration: true };
        return { ok: true, detail: `${location}: schema ${options.schema} will be created and migrated at start` };
      }
      const writable = await can("SELECT has_table_privilege($1 || '.ledger', 'SELECT,INSERT,UPDATE,DELETE') AS ok", [
        options.schema,
      ]);
      if (!writable) return { ok: false, detail: new StateError(location, 'permission').message, configuration: true };
      const behind = check.version < PG_SCHEMA_VERSION ? ` (migrated to ${PG_SCHEMA_VERSION} at start)` : '';
      return {
        ok: true,
        detail: `${location}: schema ${options.schema} at version ${check.version}${behind}, writable`,
      };
    } finally {
      client.release();
    }
  } catch (err) {
    const converted = asPostgresStateError(err, location);
    const configuration = converted instanceof StateError && converted.isInput ? { configuration: true as const } : {};
    return { ok: false, detail: converted instanceof Error ? converted.message : String(converted), ...configuration };
  } finally {
    await db.pool.end().catch(() => {});
  }
}

/**
 * True when the schema exists but this role cannot read it: no USAGE on it, or ragwatch's tables are there and
 * hidden from the role (information_schema lists only what a role may use; pg_class lists everything).
 */
async function hiddenFromRole(client: PoolClient, schema: string): Promise<boolean> {
  const { rows } = await client.query<{ usage: boolean | null; ragwatch: boolean }>(
    `SELECT has_schema_privilege(n.oid, 'USAGE') AS usage,
            EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'schema_version') AS ragwatch
       FROM pg_namespace n WHERE n.nspname = $1`,
    [schema],
  );
  const found = rows[0];
  return found !== undefined && (found.usage !== true || found.ragwatch);
}

/** One connection for an operator's command; the statement timeout is the caller's default. */
function oneConnection(options: PostgresReadOptions, statementTimeoutMs: number) {
  return createDb({
    url: options.url,
    schema: options.schema,
    poolSize: 1,
    statementTimeoutMs: options.statementTimeoutMs ?? statementTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    tls: options.tls ?? { mode: 'url' },
  });
}
