/**
 * The golden-set builder's vocabulary: corpus chunks, seeds, candidates and what the filters and the review
 * decide about them. Stratum and split names are exactly those the weekly experiment reads.
 */

export const STRATA = ['single-hop', 'multi-hop', 'adversarial'] as const;
export type Stratum = (typeof STRATA)[number];

export const SPLITS = ['dev', 'test'] as const;
export type Split = (typeof SPLITS)[number];

export type Language = 'es' | 'en';

/** One chunk of the corpus, as exported by the team's ingestion or taken from a production trace's contexts. */
export interface Chunk {
  /** Stable id (the export's, or a content hash for chunks read from traces). */
  id: string;
  text: string;
  language: Language;
  /** The source document, when known: neighbours in it make multi-hop questions. */
  document: string | null;
  /** Position in the document (or in the export), for neighbours. */
  position: number;
  /** Everything else the export says about the chunk (section, document type, date, …). */
  metadata: Record<string, unknown>;
}

/** A seed: the chunk a question set is built from, with the related chunks of a multi-hop seed after it. */
export interface Seed {
  /** Content hash of everything that shapes the generation: the candidates' ids derive from it. */
  key: string;
  stratum: Stratum;
  /** `chunks[0]` is the seed chunk. */
  chunks: Chunk[];
  /** The sampling stratum (value of `golden.seeds.strataKey`) it was drawn from. */
  bucket: string;
}

export type AdversarialKind = 'false_premise' | 'unanswerable';

/** A generated question with its reference answer, before and after the filters. */
export interface Candidate {
  /** Deterministic: the same seed and position give the same id. Also the item's id across golden-set versions. */
  id: string;
  seedKey: string;
  /** Position within the seed's questions. */
  index: number;
  stratum: Stratum;
  language: Language;
  question: string;
  reference: string;
  /** Ids of the chunks the reference comes from (the item's relevant chunks). */
  sourceChunkIds: string[];
  /** `chunkTextHash` of each source chunk as generated (absent on candidates written before it existed). */
  sourceChunkHashes?: string[];
  adversarial?: { kind: AdversarialKind; premise: string };
  /** The generator model. */
  generator: string;
  /** Prompt version of the generation. */
  promptVersion: string;
}

/** Why a candidate did not make it; every rejection keeps one. */
export const REJECTION_REASONS = [
  'malformed',
  'ambiguous',
  'wrong_language',
  'not_answerable_from_source',
  'unsupported_reference',
  'not_multi_hop',
  'trivial',
  'adversarial_answerable',
  'near_duplicate',
  'superseded',
  'review_trivial',
  'review_parametric',
  'review_ambiguous',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export type Verdict = { status: 'accepted' } | { status: 'rejected'; reason: RejectionReason; detail: string };

/** What the review queue offers people (the categories of the review score config). */
export const REVIEW_DECISIONS = ['accept', 'reject-trivial', 'reject-parametric', 'reject-ambiguous'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export function emptyStrata<T>(value: () => T): Record<Stratum, T> {
  return { 'single-hop': value(), 'multi-hop': value(), adversarial: value() };
}
