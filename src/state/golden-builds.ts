import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { CandidateRecord, GoldenBuildStore, QuestionVector } from './golden-records.js';
import {
  decodeVector,
  encodeVector,
  toBuildRecord,
  toCandidateRecord,
  toPublicationRecord,
  toSeedRecord,
  type BuildRow,
  type CandidateRow,
  type PublicationRow,
  type SeedRow,
} from './golden-rows.js';
import { migrate } from './migrations.js';

/**
 * The golden-set builder's state in the SQLite state file (its own connection and tables, same migrations):
 * seeds and candidates by id with their stage, status, reason code and content hash, the review queue id, the
 * published versions. Never a question, an answer or a chunk's text.
 */

/** Hashes per lookup (SQLite's bound parameters are limited). */
const VECTOR_BATCH = 500;

export interface SqliteGoldenStore extends GoldenBuildStore {
  close(): void;
}

export function openSqliteGoldenStore(options: { path: string }): SqliteGoldenStore {
  const location = options.path === ':memory:' ? ':memory:' : resolve(options.path);
  if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
  const db: Database = new BetterSqlite3(location);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return sqliteGoldenStore(db);
}

/** On an open, migrated database (tests hand in an in-memory one). */
export function sqliteGoldenStore(db: Database): SqliteGoldenStore {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    startBuild: p(
      'INSERT OR REPLACE INTO golden_builds (build_id, candidates_dataset, plan_hash, started_at) VALUES (?, ?, ?, ?)',
    ),
    finishBuild: p('UPDATE golden_builds SET finished_at = ?, outcome = ?, counts = ? WHERE build_id = ?'),
    lastBuild: p(
      'SELECT * FROM golden_builds WHERE candidates_dataset = ? ORDER BY started_at DESC, build_id DESC LIMIT 1',
    ),
    seeds: p('SELECT * FROM golden_seeds WHERE candidates_dataset = ? ORDER BY seed_key'),
    putSeed: p(
      `INSERT INTO golden_seeds (candidates_dataset, seed_key, stratum, chunk_ids, stage, candidate_ids, last_error, attempts, updated_at)
       VALUES (@candidates_dataset, @seed_key, @stratum, @chunk_ids, @stage, @candidate_ids, @last_error, @attempts, @updated_at)
       ON CONFLICT (candidates_dataset, seed_key) DO UPDATE SET stratum = excluded.stratum, chunk_ids = excluded.chunk_ids,
         stage = excluded.stage, candidate_ids = excluded.candidate_ids, last_error = excluded.last_error,
         attempts = excluded.attempts, updated_at = excluded.updated_at`,
    ),
    candidates: p('SELECT * FROM golden_candidates WHERE candidates_dataset = ? ORDER BY candidate_id'),
    putCandidate: p(
      `INSERT INTO golden_candidates (candidates_dataset, candidate_id, seed_key, stratum, content_hash, status, reason, review_trace_id, updated_at)
       VALUES (@candidates_dataset, @candidate_id, @seed_key, @stratum, @content_hash, @status, @reason, @review_trace_id, @updated_at)
       ON CONFLICT (candidates_dataset, candidate_id) DO UPDATE SET seed_key = excluded.seed_key, stratum = excluded.stratum,
         content_hash = excluded.content_hash, status = excluded.status, reason = excluded.reason,
         review_trace_id = excluded.review_trace_id, updated_at = excluded.updated_at`,
    ),
    reviewQueue: p('SELECT queue_id FROM golden_review_queues WHERE candidates_dataset = ?'),
    setReviewQueue: p(
      `INSERT INTO golden_review_queues (candidates_dataset, queue_id, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (candidates_dataset) DO UPDATE SET queue_id = excluded.queue_id, updated_at = excluded.updated_at`,
    ),
    putVector: p(
      `INSERT INTO golden_question_vectors (model, text_hash, vector, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (model, text_hash) DO UPDATE SET vector = excluded.vector, created_at = excluded.created_at`,
    ),
    publications: p('SELECT * FROM golden_publications WHERE prefix = ? ORDER BY version'),
    recordPublication: p(
      `INSERT OR REPLACE INTO golden_publications (prefix, dataset_name, version, candidates_dataset, content_hash, items, published_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  const putVectors = db.transaction((model: string, rows: readonly QuestionVector[], at: number) => {
    for (const v of rows) stmt.putVector.run(model, v.hash, encodeVector(v.vector), at);
  });
  const putCandidates = db.transaction((rows: CandidateRecord[]) => {
    for (const c of rows) {
      stmt.putCandidate.run({
        candidates_dataset: c.candidatesDataset,
        candidate_id: c.candidateId,
        seed_key: c.seedKey,
        stratum: c.stratum,
        content_hash: c.contentHash,
        status: c.status,
        reason: c.reason,
        review_trace_id: c.reviewTraceId,
        updated_at: c.updatedAt,
      });
    }
  });

  return {
    async startBuild(b) {
      stmt.startBuild.run(b.buildId, b.candidatesDataset, b.planHash, b.startedAt);
    },
    async finishBuild(buildId, outcome, counts, at) {
      stmt.finishBuild.run(at, outcome, JSON.stringify(counts), buildId);
    },
    async lastBuild(candidatesDataset) {
      const r = stmt.lastBuild.get(candidatesDataset) as BuildRow | undefined;
      return r ? toBuildRecord(r) : null;
    },
    async seeds(candidatesDataset) {
      return (stmt.seeds.all(candidatesDataset) as SeedRow[]).map(toSeedRecord);
    },
    async putSeed(s) {
      stmt.putSeed.run({
        candidates_dataset: s.candidatesDataset,
        seed_key: s.seedKey,
        stratum: s.stratum,
        chunk_ids: JSON.stringify(s.chunkIds),
        stage: s.stage,
        candidate_ids: JSON.stringify(s.candidateIds),
        last_error: s.lastError,
        attempts: s.attempts,
        updated_at: s.updatedAt,
      });
    },
    async candidates(candidatesDataset) {
      return (stmt.candidates.all(candidatesDataset) as CandidateRow[]).map(toCandidateRecord);
    },
    async putCandidates(rows) {
      if (rows.length > 0) putCandidates(rows);
    },
    async reviewQueue(candidatesDataset) {
      return (stmt.reviewQueue.get(candidatesDataset) as { queue_id: string } | undefined)?.queue_id ?? null;
    },
    async setReviewQueue(candidatesDataset, queueId, at) {
      stmt.setReviewQueue.run(candidatesDataset, queueId, at);
    },
    async publications(prefix) {
      return (stmt.publications.all(prefix) as PublicationRow[]).map(toPublicationRecord);
    },
    async recordPublication(pub) {
      stmt.recordPublication.run(
        pub.prefix,
        pub.datasetName,
        pub.version,
        pub.candidatesDataset,
        pub.contentHash,
        pub.items,
        pub.publishedAt,
      );
    },
    async questionVectors(model, hashes) {
      const out = new Map<string, number[]>();
      for (let i = 0; i < hashes.length; i += VECTOR_BATCH) {
        const batch = hashes.slice(i, i + VECTOR_BATCH);
        const rows = db
          .prepare(
            `SELECT text_hash, vector FROM golden_question_vectors WHERE model = ? AND text_hash IN (${batch.map(() => '?').join(', ')})`,
          )
          .all(model, ...batch) as { text_hash: string; vector: string }[];
        for (const r of rows) out.set(r.text_hash, decodeVector(r.vector));
      }
      return out;
    },
    async putQuestionVectors(model, vectors, at) {
      if (vectors.length > 0) putVectors(model, vectors, at);
    },
    close() {
      if (db.open) db.close();
    },
  };
}
