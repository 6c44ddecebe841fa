/**
 * The golden-set builder's resumable state (`ragwatch golden build`): seeds, candidates, builds and published
 * versions. Ids, hashes, codes and counts only, never text; a state role like the others (roles.ts).
 */

export type SeedStage = 'generated' | 'done' | 'failed';

/** A seed's progress: ids, hashes, codes and counts only, never text. */
export interface SeedRecord {
  candidatesDataset: string;
  seedKey: string;
  /** The seed's stratum (`single-hop`, `multi-hop`, `adversarial`). */
  stratum: string;
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
  /** The seed's stratum (`single-hop`, `multi-hop`, `adversarial`). */
  stratum: string;
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
  /** Embeddings of questions kept by the embeddings model and the SHA-256 of the text: the ones it has, by hash. */
  questionVectors(model: string, hashes: readonly string[]): Promise<Map<string, number[]>>;
  /** Keeps (or replaces) embeddings of questions by model and hash; never the text. */
  putQuestionVectors(model: string, vectors: readonly QuestionVector[], at: number): Promise<void>;
}

export interface QuestionVector {
  /** SHA-256 of the question, hex. */
  hash: string;
  vector: readonly number[];
}
