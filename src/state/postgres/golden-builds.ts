import type { CandidateRecord, GoldenBuildStore } from '../golden-records.js';
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
} from '../golden-rows.js';
import type { Db } from './db.js';

/** The golden-set builder's state on PostgreSQL: the same tables and rows as on SQLite (`../golden-builds.ts`). */
export function postgresGoldenStore(db: Db): GoldenBuildStore {
  return {
    async startBuild(b) {
      await db.query(
        `INSERT INTO golden_builds (build_id, candidates_dataset, plan_hash, started_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (build_id) DO UPDATE SET candidates_dataset = excluded.candidates_dataset,
           plan_hash = excluded.plan_hash,
           started_at = excluded.started_at, finished_at = NULL, outcome = NULL, counts = '{}'`,
        [b.buildId, b.candidatesDataset, b.planHash, b.startedAt],
      );
    },
    async finishBuild(buildId, outcome, counts, at) {
      await db.query('UPDATE golden_builds SET finished_at = $1, outcome = $2, counts = $3 WHERE build_id = $4', [
        at,
        outcome,
        JSON.stringify(counts),
        buildId,
      ]);
    },
    async lastBuild(candidatesDataset) {
      const r = (
        await db.query<BuildRow>(
          'SELECT * FROM golden_builds WHERE candidates_dataset = $1 ORDER BY started_at DESC, build_id DESC LIMIT 1',
          [candidatesDataset],
        )
      ).rows[0];
      return r ? toBuildRecord(r) : null;
    },
    async seeds(candidatesDataset) {
      const r = await db.query<SeedRow>(
        'SELECT * FROM golden_seeds WHERE candidates_dataset = $1 ORDER BY seed_key COLLATE "C"',
        [candidatesDataset],
      );
      return r.rows.map(toSeedRecord);
    },
    async putSeed(s) {
      await db.query(
        `INSERT INTO golden_seeds (candidates_dataset, seed_key, stratum, chunk_ids, stage, candidate_ids,
           last_error, attempts, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (candidates_dataset, seed_key) DO UPDATE SET stratum = excluded.stratum,
           chunk_ids = excluded.chunk_ids,
           stage = excluded.stage, candidate_ids = excluded.candidate_ids, last_error = excluded.last_error,
           attempts = excluded.attempts, updated_at = excluded.updated_at`,
        [
          s.candidatesDataset,
          s.seedKey,
          s.stratum,
          JSON.stringify(s.chunkIds),
          s.stage,
          JSON.stringify(s.candidateIds),
          s.lastError,
          s.attempts,
          s.updatedAt,
        ],
      );
    },
    async candidates(candidatesDataset) {
      const r = await db.query<CandidateRow>(
        'SELECT * FROM golden_candidates WHERE candidates_dataset = $1 ORDER BY candidate_id COLLATE "C"',
        [candidatesDataset],
      );
      return r.rows.map(toCandidateRecord);
    },
    async putCandidates(rows) {
      if (rows.length === 0) return;
      const col = <K extends keyof CandidateRecord>(k: K) => rows.map((c) => c[k]);
      await db.query(
        `INSERT INTO golden_candidates (candidates_dataset, candidate_id, seed_key, stratum, content_hash, status,
           reason, review_trace_id, updated_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::text[], $9::bigint[])
         ON CONFLICT (candidates_dataset, candidate_id) DO UPDATE SET seed_key = excluded.seed_key,
           stratum = excluded.stratum,
           content_hash = excluded.content_hash, status = excluded.status, reason = excluded.reason,
           review_trace_id = excluded.review_trace_id, updated_at = excluded.updated_at`,
        [
          col('candidatesDataset'),
          col('candidateId'),
          col('seedKey'),
          col('stratum'),
          col('contentHash'),
          col('status'),
          col('reason'),
          col('reviewTraceId'),
          col('updatedAt'),
        ],
      );
    },
    async reviewQueue(candidatesDataset) {
      const r = await db.query<{ queue_id: string }>(
        'SELECT queue_id FROM golden_review_queues WHERE candidates_dataset = $1',
        [candidatesDataset],
      );
      return r.rows[0]?.queue_id ?? null;
    },
    async setReviewQueue(candidatesDataset, queueId, at) {
      await db.query(
        `INSERT INTO golden_review_queues (candidates_dataset, queue_id, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (candidates_dataset) DO UPDATE SET queue_id = excluded.queue_id, updated_at = excluded.updated_at`,
        [candidatesDataset, queueId, at],
      );
    },
    async publications(prefix) {
      const r = await db.query<PublicationRow>('SELECT * FROM golden_publications WHERE prefix = $1 ORDER BY version', [
        prefix,
      ]);
      return r.rows.map(toPublicationRecord);
    },
    async questionVectors(model, hashes) {
      const out = new Map<string, number[]>();
      if (hashes.length === 0) return out;
      const r = await db.query<{ text_hash: string; vector: string }>(
        'SELECT text_hash, vector FROM golden_question_vectors WHERE model = $1 AND text_hash = ANY($2::text[])',
        [model, [...hashes]],
      );
      for (const row of r.rows) out.set(row.text_hash, decodeVector(row.vector));
      return out;
    },
    async putQuestionVectors(model, vectors, at) {
      // One row per hash: ON CONFLICT cannot touch a row twice in one statement.
      const byHash = new Map(vectors.map((v) => [v.hash, encodeVector(v.vector)]));
      if (byHash.size === 0) return;
      await db.query(
        `INSERT INTO golden_question_vectors (model, text_hash, vector, created_at)
         SELECT $1, h, v, $4 FROM unnest($2::text[], $3::text[]) AS t(h, v)
         ON CONFLICT (model, text_hash) DO UPDATE SET vector = excluded.vector, created_at = excluded.created_at`,
        [model, [...byHash.keys()], [...byHash.values()], at],
      );
    },
    async recordPublication(pub) {
      await db.query(
        `INSERT INTO golden_publications (prefix, dataset_name, version, candidates_dataset, content_hash, items,
           published_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (prefix, version) DO UPDATE SET dataset_name = excluded.dataset_name,
           candidates_dataset = excluded.candidates_dataset, content_hash = excluded.content_hash,
             items = excluded.items,
           published_at = excluded.published_at`,
        [pub.prefix, pub.datasetName, pub.version, pub.candidatesDataset, pub.contentHash, pub.items, pub.publishedAt],
      );
    },
  };
}
