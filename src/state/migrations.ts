import type { Database } from 'better-sqlite3';
import { traceNameKey } from '../internal/index.js';

/**
 * Schema steps, applied in order and recorded in `PRAGMA user_version`. Append new steps; never edit a
 * released one (existing state files have already run it).
 */
export const MIGRATIONS: ReadonlyArray<{
  version: number;
  sql: string;
  /** Rows rewritten after the SQL, in the same transaction (what SQLite's SQL cannot compute). */
  rows?: (db: Database) => void;
}> = [
  {
    version: 1,
    sql: `
      CREATE TABLE cursors (
        job TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE ledger (
        trace_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'skipped', 'failed', 'dead')),
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        score_ids TEXT NOT NULL DEFAULT '[]',
        trace_timestamp INTEGER NOT NULL,
        environment TEXT,
        trace_name TEXT,
        sample_rate REAL NOT NULL,
        first_seen_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_attempt_at INTEGER,
        next_attempt_at INTEGER
      );
      CREATE INDEX ledger_by_status ON ledger (status, trace_timestamp);
      CREATE TABLE attempts (
        trace_id TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX attempts_by_time ON attempts (at);
      CREATE TABLE job_runs (
        job TEXT PRIMARY KEY,
        last_start_at INTEGER,
        last_success_at INTEGER,
        last_finish_at INTEGER,
        last_outcome TEXT
      );
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE gauges (
        name TEXT PRIMARY KEY,
        value REAL NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Small facts about the deployment (the Langfuse API generation detected at start-up, ...), and the
    // index `ragwatch status` groups the ledger by day with.
    version: 2,
    sql: `
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX ledger_by_first_seen ON ledger (first_seen_at);
    `,
  },
  {
    // The golden-set experiment's own record of its runs: IDs, codes and numbers only.
    version: 3,
    sql: `
      CREATE TABLE experiment_runs (
        dataset TEXT NOT NULL,
        run_name TEXT NOT NULL,
        dataset_run_id TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER NOT NULL,
        split TEXT NOT NULL,
        gate_passed INTEGER NOT NULL,
        means TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (dataset, run_name)
      );
      CREATE INDEX experiment_runs_by_time ON experiment_runs (dataset, started_at);
      CREATE TABLE experiment_item_values (
        dataset TEXT NOT NULL,
        run_name TEXT NOT NULL,
        item_id TEXT NOT NULL,
        metric TEXT NOT NULL,
        value REAL NOT NULL,
        PRIMARY KEY (dataset, run_name, item_id, metric)
      );
    `,
  },
  {
    // The golden-set builder's resumable state: ids, hashes, statuses and counts, never a question or an answer
    // (the candidates' texts live in Langfuse's candidates dataset).
    version: 4,
    sql: `
      CREATE TABLE golden_builds (
        build_id TEXT PRIMARY KEY,
        candidates_dataset TEXT NOT NULL,
        plan_hash TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        outcome TEXT,
        counts TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX golden_builds_by_dataset ON golden_builds (candidates_dataset, started_at);
      CREATE TABLE golden_seeds (
        candidates_dataset TEXT NOT NULL,
        seed_key TEXT NOT NULL,
        stratum TEXT NOT NULL,
        chunk_ids TEXT NOT NULL,
        stage TEXT NOT NULL CHECK (stage IN ('generated', 'done', 'failed')),
        candidate_ids TEXT NOT NULL DEFAULT '[]',
        last_error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (candidates_dataset, seed_key)
      );
      CREATE TABLE golden_candidates (
        candidates_dataset TEXT NOT NULL,
        candidate_id TEXT NOT NULL,
        seed_key TEXT NOT NULL,
        stratum TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('generated', 'accepted', 'rejected')),
        reason TEXT,
        review_trace_id TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (candidates_dataset, candidate_id)
      );
      CREATE TABLE golden_review_queues (
        candidates_dataset TEXT PRIMARY KEY,
        queue_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE golden_publications (
        prefix TEXT NOT NULL,
        dataset_name TEXT NOT NULL,
        version INTEGER NOT NULL,
        candidates_dataset TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        items INTEGER NOT NULL,
        published_at INTEGER NOT NULL,
        PRIMARY KEY (prefix, version)
      );
    `,
  },
  {
    // Claims on ledger entries: which replica is evaluating a trace, and until when unless it renews.
    version: 5,
    sql: `
      ALTER TABLE ledger ADD COLUMN claimed_by TEXT;
      ALTER TABLE ledger ADD COLUMN claim_expires_at INTEGER;
    `,
  },
  {
    // The weekly reports' files, so that every replica serves them (PostgreSQL state; the same table here keeps
    // the schemas equal and gives state migrate a place for it).
    version: 6,
    sql: `
      CREATE TABLE report_files (
        run_dir TEXT NOT NULL,
        file TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (run_dir, file)
      );
      CREATE INDEX report_files_by_time ON report_files (created_at);
    `,
  },
  {
    // Trace names as ragwatch keeps them (internal/trace-name.ts): an identifier as written, any other name hashed.
    version: 7,
    sql: '',
    rows: (db) => {
      const rows = db.prepare('SELECT trace_id, trace_name FROM ledger WHERE trace_name IS NOT NULL').all() as {
        trace_id: string;
        trace_name: string;
      }[];
      const update = db.prepare('UPDATE ledger SET trace_name = ? WHERE trace_id = ?');
      for (const r of rows) {
        const key = traceNameKey(r.trace_name);
        if (key !== r.trace_name) update.run(key, r.trace_id);
      }
    },
  },
  {
    // The golden-set builder's embeddings of accepted questions, by embeddings model and SHA-256 of the question:
    // a finished build checks near-duplicates again without asking the embeddings server. The vector is 8-byte
    // floats, little-endian, in base64; never the question.
    version: 8,
    sql: `
      CREATE TABLE golden_question_vectors (
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (model, text_hash)
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Brings the database to the latest schema; refuses a file written by a newer ragwatch. */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `state schema version ${current} is newer than this ragwatch understands (${SCHEMA_VERSION}); upgrade ragwatch`,
    );
  }
  for (const step of MIGRATIONS) {
    if (step.version <= current) continue;
    db.transaction(() => {
      db.exec(step.sql);
      step.rows?.(db);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
}
