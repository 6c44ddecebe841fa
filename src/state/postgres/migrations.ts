import type { PoolClient } from 'pg';
import { traceNameKeySql } from '../../internal/index.js';

/**
 * The PostgreSQL schema, step by step, with the same version numbers and tables as SQLite's (`../migrations.ts`),
 * so `state migrate` copies table by table. Keys that order listings sort bytewise (COLLATE "C"), as SQLite
 * does. Times are BIGINT ms since epoch (read back as numbers); JSON columns stay TEXT as on SQLite. Append
 * new steps; never edit a released one.
 */
export const PG_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE cursors (job TEXT PRIMARY KEY, position BIGINT NOT NULL, updated_at BIGINT NOT NULL);
      CREATE TABLE ledger (
        trace_id TEXT COLLATE "C" PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'skipped', 'failed', 'dead')),
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        score_ids TEXT NOT NULL DEFAULT '[]',
        trace_timestamp BIGINT NOT NULL,
        environment TEXT,
        trace_name TEXT,
        sample_rate DOUBLE PRECISION NOT NULL,
        first_seen_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_attempt_at BIGINT,
        next_attempt_at BIGINT
      );
      CREATE INDEX ledger_by_status ON ledger (status, trace_timestamp);
      CREATE TABLE attempts (trace_id TEXT NOT NULL, at BIGINT NOT NULL);
      CREATE INDEX attempts_by_time ON attempts (at);
      CREATE TABLE job_runs (
        job TEXT PRIMARY KEY, last_start_at BIGINT, last_success_at BIGINT, last_finish_at BIGINT, last_outcome TEXT
      );
      CREATE TABLE leases (
        name TEXT PRIMARY KEY, holder TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
        acquired_at BIGINT NOT NULL, expires_at BIGINT NOT NULL
      );
      CREATE TABLE gauges (name TEXT PRIMARY KEY, value DOUBLE PRECISION NOT NULL, updated_at BIGINT NOT NULL);
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL);
      CREATE INDEX ledger_by_first_seen ON ledger (first_seen_at);
    `,
  },
  {
    version: 3,
    sql: `
      CREATE TABLE experiment_runs (
        dataset TEXT NOT NULL, run_name TEXT COLLATE "C" NOT NULL, dataset_run_id TEXT, started_at BIGINT NOT NULL,
        finished_at BIGINT NOT NULL, split TEXT NOT NULL, gate_passed INTEGER NOT NULL,
          means TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (dataset, run_name)
      );
      CREATE INDEX experiment_runs_by_time ON experiment_runs (dataset, started_at);
      CREATE TABLE experiment_item_values (
        dataset TEXT NOT NULL, run_name TEXT NOT NULL, item_id TEXT NOT NULL, metric TEXT NOT NULL,
        value DOUBLE PRECISION NOT NULL, PRIMARY KEY (dataset, run_name, item_id, metric)
      );
    `,
  },
  {
    version: 4,
    sql: `
      CREATE TABLE golden_builds (
        build_id TEXT PRIMARY KEY, candidates_dataset TEXT NOT NULL, plan_hash TEXT NOT NULL,
        started_at BIGINT NOT NULL, finished_at BIGINT, outcome TEXT, counts TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX golden_builds_by_dataset ON golden_builds (candidates_dataset, started_at);
      CREATE TABLE golden_seeds (
        candidates_dataset TEXT NOT NULL, seed_key TEXT COLLATE "C" NOT NULL, stratum TEXT NOT NULL,
          chunk_ids TEXT NOT NULL,
        stage TEXT NOT NULL CHECK (stage IN ('generated', 'done', 'failed')), candidate_ids TEXT NOT NULL DEFAULT '[]',
        last_error TEXT, attempts INTEGER NOT NULL DEFAULT 0, updated_at BIGINT NOT NULL,
        PRIMARY KEY (candidates_dataset, seed_key)
      );
      CREATE TABLE golden_candidates (
        candidates_dataset TEXT NOT NULL, candidate_id TEXT COLLATE "C" NOT NULL, seed_key TEXT NOT NULL,
          stratum TEXT NOT NULL,
        content_hash TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('generated', 'accepted', 'rejected')),
        reason TEXT, review_trace_id TEXT, updated_at BIGINT NOT NULL, PRIMARY KEY (candidates_dataset, candidate_id)
      );
      CREATE TABLE golden_review_queues (
        candidates_dataset TEXT PRIMARY KEY, queue_id TEXT NOT NULL, updated_at BIGINT NOT NULL
      );
      CREATE TABLE golden_publications (
        prefix TEXT NOT NULL, dataset_name TEXT NOT NULL, version INTEGER NOT NULL, candidates_dataset TEXT NOT NULL,
        content_hash TEXT NOT NULL, items INTEGER NOT NULL, published_at BIGINT NOT NULL, PRIMARY KEY (prefix, version)
      );
    `,
  },
  {
    // Claims on ledger entries: which replica is evaluating a trace, and until when unless it renews.
    version: 5,
    sql: `
      ALTER TABLE ledger ADD COLUMN claimed_by TEXT, ADD COLUMN claim_expires_at BIGINT;
    `,
  },
  {
    // The weekly reports' files, so that every replica serves them.
    version: 6,
    sql: `
      CREATE TABLE report_files (
        run_dir TEXT NOT NULL, file TEXT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (run_dir, file)
      );
      CREATE INDEX report_files_by_time ON report_files (created_at);
    `,
  },
  {
    // Trace names as ragwatch keeps them (internal/trace-name.ts): an identifier as written, any other name hashed.
    version: 7,
    sql: `
      UPDATE ledger SET trace_name = ${traceNameKeySql('trace_name')} WHERE trace_name IS NOT NULL;
    `,
  },
  {
    // The golden-set builder's embeddings of accepted questions, by model and SHA-256 of the question.
    version: 8,
    sql: `
      CREATE TABLE golden_question_vectors (
        model TEXT NOT NULL, text_hash TEXT COLLATE "C" NOT NULL, vector TEXT NOT NULL, created_at BIGINT NOT NULL,
        PRIMARY KEY (model, text_hash)
      );
    `,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;

export type SchemaCheck =
  { ok: true; version: number } | { ok: false; kind: 'newer_schema' | 'not_ragwatch'; version: number };

/** Quotes an identifier (the schema name is checked by the config, quoted all the same). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Creates the schema and brings it to the latest version, under a session advisory lock keyed on the schema
 * name so that replicas starting together migrate once. The applied version is the row of `schema_version`.
 */
export async function migratePostgres(client: PoolClient, schema: string): Promise<SchemaCheck> {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [`ragwatch-migrate:${schema}`]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    const check = await schemaVersion(client, schema);
    if (!check.ok) return check;
    for (const step of PG_MIGRATIONS) {
      if (step.version <= check.version) continue;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO ${ident(schema)}`);
        if (step.version === 1) await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
        await client.query(step.sql);
        await client.query('DELETE FROM schema_version');
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [step.version]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
    return { ok: true, version: PG_SCHEMA_VERSION };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`ragwatch-migrate:${schema}`]);
  }
}

/** The schema's version; a schema with tables but no `schema_version` is someone else's. */
export async function schemaVersion(client: PoolClient, schema: string): Promise<SchemaCheck> {
  const tables = await client.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  const names = new Set(tables.rows.map((r) => r.table_name));
  if (!names.has('schema_version'))
    return names.size > 0 ? { ok: false, kind: 'not_ragwatch', version: 0 } : { ok: true, version: 0 };
  const row = await client.query<{ version: number }>(`SELECT version FROM ${ident(schema)}.schema_version`);
  const version = row.rows[0]?.version ?? 0;
  if (version > PG_SCHEMA_VERSION) return { ok: false, kind: 'newer_schema', version };
  return { ok: true, version };
}
