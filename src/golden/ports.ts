/**
 * What the golden-set builder needs from the outside, as small interfaces: `edges.ts` wires them to Langfuse,
 * the judge, the anonymizer and the state store; tests can wire anything with the same shape.
 */
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { DatasetItem } from '../langfuse/index.js';
import type { MetricResult } from '../metrics/index.js';
import type { Progress } from '../progress/index.js';
import type { Stratum } from './types.js';

export type { EmbeddingsClient, JudgeClient, Progress };

// ── Langfuse ───────────────────────────────────────────────────────────────────

export interface DatasetItemBody {
  datasetName: string;
  id: string;
  input: unknown;
  expectedOutput: unknown;
  metadata: Record<string, unknown>;
  status: 'ACTIVE' | 'ARCHIVED';
}

export interface GoldenDatasets {
  /** Creates the dataset, or updates its description and metadata (Langfuse upserts on name). */
  ensure(name: string, description: string, metadata: Record<string, unknown>): Promise<void>;
  /** Upserts on the item id. */
  upsert(item: DatasetItemBody): Promise<void>;
  get(id: string): Promise<DatasetItem | null>;
  /** Every item (archived ones too), all pages; an unknown dataset has none. */
  items(datasetName: string): Promise<DatasetItem[]>;
  /** Metadata of a dataset, `null` when it does not exist. */
  metadata(datasetName: string): Promise<Record<string, unknown> | null>;
  names(): Promise<string[]>;
}

export interface ReviewTrace {
  /** 32 hex digits, derived from the candidate id. */
  id: string;
  question: string;
  reference: string;
  stratum: Stratum;
  language: string;
  chunks: Array<{ id: string; text: string }>;
  candidateId: string;
  candidatesDataset: string;
  timestampMs: number;
}

export interface ReviewAnnotation {
  traceId: string;
  /** `golden-review` (a decision label) or `golden-review-note` (free text). */
  name: string;
  label: string | null;
  comment: string | null;
  /** ISO 8601: the latest annotation of a trace wins. */
  timestamp: string;
}

export interface ReviewQueue {
  /** Score configs and the queue (reused by name); returns the queue id. */
  ensure(name: string, description: string): Promise<string>;
  /** The id of the queue of that name, `null` when there is none. */
  find(name: string): Promise<string | null>;
  /** Trace ids already queued. */
  queuedTraces(queueId: string): Promise<Set<string>>;
  enqueue(queueId: string, traceId: string): Promise<void>;
  writeTraces(traces: ReviewTrace[]): Promise<void>;
  annotations(queueId: string): Promise<ReviewAnnotation[]>;
}

// ── judge ──────────────────────────────────────────────────────────────────────

/** Faithfulness of a text to the given chunks, by the metrics' own machinery. */
export type FaithfulnessCheck = (input: {
  question: string;
  answer: string;
  contexts: string[];
  language: 'es' | 'en';
}) => Promise<MetricResult>;

// ── personal data ─────────────────────────────────────────────────────────────

export interface PersonalDataCheck {
  /** Whether the anonymizer finds personal data in the text. */
  found(text: string): boolean;
  /** The text with personal data replaced by placeholders (for texts that must reach the judge anyway). */
  redact(text: string): string;
}

// ── state ──────────────────────────────────────────────────────────────────────

export type SeedStage = 'generated' | 'done' | 'failed';

/** A seed's progress: ids, hashes, codes and counts only, never text. */
export interface SeedRecord {
  candidatesDataset: string;
  seedKey: string;
  stratum: Stratum;
  chunkIds: string[];
  stage: SeedStage;
  candidateIds: string[];
  /** A failure's code (`judge:http_503`), never free text. */
  lastError: string | null;
  attempts: number;
  updatedAt: number;
}

export type CandidateStatus = 'generated' | 'accepted' | 'rejected';

export interface CandidateRecord {
  candidatesDataset: string;
  candidateId: string;
  seedKey: string;
  stratum: Stratum;
  /** Hash of question and reference: tells a changed candidate from the same one. */
  contentHash: string;
  status: CandidateStatus;
  reason: string | null;
  /** Set once the candidate is in the review queue. */
  reviewTraceId: string | null;
  updatedAt: number;
}

export interface BuildRecord {
  buildId: string;
  candidatesDataset: string;
  planHash: string;
  startedAt: number;
  finishedAt: number | null;
  outcome: string | null;
  /** Counts by name (`seeds`, `accepted`, `rejected.trivial`, `judge.calls`, …). */
  counts: Record<string, number>;
}

export interface PublicationRecord {
  /** The dataset name prefix (`golden.dataset`). */
  prefix: string;
  datasetName: string;
  version: number;
  candidatesDataset: string;
  contentHash: string;
  items: number;
  publishedAt: number;
}

/** The builder's resumable state: SQLite today, any state backend with the same shape tomorrow. */
export interface GoldenBuildStore {
  startBuild(build: Pick<BuildRecord, 'buildId' | 'candidatesDataset' | 'planHash' | 'startedAt'>): Promise<void>;
  finishBuild(buildId: string, outcome: string, counts: Record<string, number>, at: number): Promise<void>;
  lastBuild(candidatesDataset: string): Promise<BuildRecord | null>;
  seeds(candidatesDataset: string): Promise<SeedRecord[]>;
  putSeed(seed: SeedRecord): Promise<void>;
  candidates(candidatesDataset: string): Promise<CandidateRecord[]>;
  putCandidates(candidates: CandidateRecord[]): Promise<void>;
  reviewQueue(candidatesDataset: string): Promise<string | null>;
  setReviewQueue(candidatesDataset: string, queueId: string, at: number): Promise<void>;
  publications(prefix: string): Promise<PublicationRecord[]>;
  recordPublication(publication: PublicationRecord): Promise<void>;
}

export interface Clock {
  now(): number;
}
