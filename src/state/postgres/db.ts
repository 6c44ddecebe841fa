import { readFileSync } from 'node:fs';
import pg from 'pg';
import { withLibpqSslModes } from './url.js';

export interface PostgresTls {
  /**
   * `url`: as the URL's `sslmode` says (none when it says nothing); `require`: encrypted, certificate unchecked;
   * `verify`: encrypted and the server's certificate and host name checked.
   */
  mode: 'url' | 'require' | 'verify';
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface PostgresPoolOptions {
  url: string;
  schema: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  tls: PostgresTls;
}

/** A query runner over the pool that counts round trips (the bench reads the count). */
export interface Db {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(fn: (q: Db['query']) => Promise<T>): Promise<T>;
  readonly pool: pg.Pool;
  roundTrips: number;
  /** Sees every round trip (the bench attributes them to the store's methods). */
  onRoundTrip?: () => void;
}

const INT8 = 20;

/** BIGINT columns hold ms since epoch and counts: well inside a double, read back as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function sslOption(tls: PostgresTls): pg.PoolConfig['ssl'] {
  if (tls.mode === 'url') return undefined;
  const files = {
    ...(tls.caFile ? { ca: readFileSync(tls.caFile, 'utf8') } : {}),
    ...(tls.certFile ? { cert: readFileSync(tls.certFile, 'utf8') } : {}),
    ...(tls.keyFile ? { key: readFileSync(tls.keyFile, 'utf8') } : {}),
  };
  return { rejectUnauthorized: tls.mode === 'verify', ...files };
}

export function createDb(options: PostgresPoolOptions): Db {
  const pool = new pg.Pool({
    connectionString: withLibpqSslModes(options.url),
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    // A connection cut without a word (a dead link, a proxy that hangs) ends the query here too.
    query_timeout: options.statementTimeoutMs + 2000,
    keepAlive: true,
    application_name: 'ragwatch',
    options: `-c search_path=${options.schema}`,
    types,
    ssl: sslOption(options.tls),
  } as pg.PoolConfig);
  // An idle connection the server or the network drops is reported here; the pool replaces it on next use.
  pool.on('error', () => {});
  // Waiting for a connection, then the statement: past both timeouts and a margin the query has hung in the driver
  // (pg-pool 3.14 can leave a checkout or a connect that a cut interrupted unsettled), and fails as a timeout.
  const deadlineMs = options.connectTimeoutMs + options.statementTimeoutMs + 5000;
  const db: Db = {
    pool,
    roundTrips: 0,
    query(sql, params) {
      db.roundTrips += 1;
      db.onRoundTrip?.();
      return withDeadline(pool.query(sql, params as unknown[]), deadlineMs);
    },
    async transaction(fn) {
      const client = await pool.connect();
      let broken = false;
      const q: Db['query'] = (sql, params) => {
        db.roundTrips += 1;
        db.onRoundTrip?.();
        return client.query(sql, params as unknown[]);
      };
      try {
        await q('BEGIN');
        const out = await fn(q);
        await q('COMMIT');
        return out;
      } catch (err) {
        await q('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
  return db;
}

/** The query's own answer, or a timeout error once `ms` have passed without one (the query is abandoned). */
function withDeadline<T>(query: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Query read timeout: no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([query, deadline]).finally(() => clearTimeout(timer));
}
