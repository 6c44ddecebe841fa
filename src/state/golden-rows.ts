import type { BuildRecord, CandidateRecord, PublicationRecord, SeedRecord } from './golden-records.js';

/** The golden-set builder's rows as both backends store them (the same columns), and the records they become. */

export interface BuildRow {
  build_id: string;
  candidates_dataset: string;
  plan_hash: string;
  started_at: number;
  finished_at: number | null;
  outcome: string | null;
  counts: string;
}

export interface SeedRow {
  candidates_dataset: string;
  seed_key: string;
  stratum: SeedRecord['stratum'];
  chunk_ids: string;
  stage: SeedRecord['stage'];
  candidate_ids: string;
  last_error: string | null;
  attempts: number;
  updated_at: number;
}

export interface CandidateRow {
  candidates_dataset: string;
  candidate_id: string;
  seed_key: string;
  stratum: CandidateRecord['stratum'];
  content_hash: string;
  status: CandidateRecord['status'];
  reason: string | null;
  review_trace_id: string | null;
  updated_at: number;
}

export interface PublicationRow {
  prefix: string;
  dataset_name: string;
  version: number;
  candidates_dataset: string;
  content_hash: string;
  items: number;
  published_at: number;
}

export function toBuildRecord(r: BuildRow): BuildRecord {
  return {
    buildId: r.build_id,
    candidatesDataset: r.candidates_dataset,
    planHash: r.plan_hash,
    startedAt: r.started_at,
    finishedAt: r.finished_at ?? null,
    outcome: r.outcome ?? null,
    counts: JSON.parse(r.counts) as Record<string, number>,
  };
}

export function toSeedRecord(r: SeedRow): SeedRecord {
  return {
    candidatesDataset: r.candidates_dataset,
    seedKey: r.seed_key,
    stratum: r.stratum,
    chunkIds: JSON.parse(r.chunk_ids) as string[],
    stage: r.stage,
    candidateIds: JSON.parse(r.candidate_ids) as string[],
    lastError: r.last_error,
    attempts: r.attempts,
    updatedAt: r.updated_at,
  };
}

export function toCandidateRecord(r: CandidateRow): CandidateRecord {
  return {
    candidatesDataset: r.candidates_dataset,
    candidateId: r.candidate_id,
    seedKey: r.seed_key,
    stratum: r.stratum,
    contentHash: r.content_hash,
    status: r.status,
    reason: r.reason,
    reviewTraceId: r.review_trace_id,
    updatedAt: r.updated_at,
  };
}

export function toPublicationRecord(r: PublicationRow): PublicationRecord {
  return {
    prefix: r.prefix,
    datasetName: r.dataset_name,
    version: r.version,
    candidatesDataset: r.candidates_dataset,
    contentHash: r.content_hash,
    items: r.items,
    publishedAt: r.published_at,
  };
}

/** A vector as both backends keep it: 8-byte floats, little-endian, in base64 (every value exactly, NaN and -0 too). */
export function encodeVector(vector: readonly number[]): string {
  const buf = Buffer.alloc(vector.length * 8);
  vector.forEach((x, i) => buf.writeDoubleLE(x, i * 8));
  return buf.toString('base64');
}

export function decodeVector(text: string): number[] {
  const buf = Buffer.from(text, 'base64');
  const out: number[] = [];
  for (let i = 0; i + 8 <= buf.length; i += 8) out.push(buf.readDoubleLE(i));
  return out;
}
