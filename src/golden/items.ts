import type { DatasetItem } from '../langfuse/index.js';
import { publishedItemId, sha256 } from './ids.js';
import type { DatasetItemBody } from './ports.js';
import { STRATA, type Candidate, type Split, type Stratum, type Verdict } from './types.js';

/**
 * How candidates and golden items look in Langfuse, and how a candidate is read back from its dataset item (the
 * only place its texts live: a resumed build reads them from there). Published items carry what the weekly
 * experiment reads: `input.question`, `expectedOutput.answer`, metadata `type` and `split`.
 */

export const contentHash = (c: Pick<Candidate, 'question' | 'reference'>): string =>
  sha256('golden-content-v1', c.question, c.reference).slice(0, 16);

export interface CandidateState {
  verdict: Verdict | null;
  buildId: string;
  review?: { traceId: string; queue: string };
}

export function candidateItem(candidatesDataset: string, c: Candidate, state: CandidateState): DatasetItemBody {
  const v = state.verdict;
  return {
    datasetName: candidatesDataset,
    id: c.id,
    input: { question: c.question },
    expectedOutput: { answer: c.reference },
    status: v?.status === 'rejected' ? 'ARCHIVED' : 'ACTIVE',
    metadata: {
      golden_id: c.id,
      type: c.stratum,
      language: c.language,
      source_chunks: c.sourceChunkIds,
      ...(c.sourceChunkHashes ? { source_hashes: c.sourceChunkHashes } : {}),
      generator: { model: c.generator, prompt_version: c.promptVersion },
      seed_key: c.seedKey,
      index: c.index,
      ...(c.adversarial ? { adversarial: { kind: c.adversarial.kind, premise: c.adversarial.premise } } : {}),
      status: v?.status ?? 'generated',
      ...(v?.status === 'rejected' ? { reason: v.reason, detail: v.detail } : {}),
      ...(state.review ? { review: { trace_id: state.review.traceId, queue: state.review.queue } } : {}),
      build: state.buildId,
    },
  };
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A candidate back from its item; `null` when the item is not one ragwatch wrote (or was edited out of shape). */
export function candidateFromItem(item: DatasetItem): Candidate | null {
  const m = obj(item.metadata);
  const question = text(obj(item.input).question);
  const reference = text(obj(item.expectedOutput).answer);
  const stratum = m.type as Stratum;
  const seedKey = text(m.seed_key);
  const language = m.language === 'es' || m.language === 'en' ? m.language : null;
  if (
    question === null ||
    reference === null ||
    !STRATA.includes(stratum) ||
    !seedKey ||
    !language ||
    typeof m.index !== 'number'
  )
    return null;
  const generator = obj(m.generator);
  const adversarial = obj(m.adversarial);
  const kind = adversarial.kind === 'false_premise' || adversarial.kind === 'unanswerable' ? adversarial.kind : null;
  return {
    id: item.id,
    seedKey,
    index: m.index,
    stratum,
    language,
    question,
    reference,
    sourceChunkIds: Array.isArray(m.source_chunks)
      ? m.source_chunks.filter((x): x is string => typeof x === 'string')
      : [],
    ...(Array.isArray(m.source_hashes) && m.source_hashes.every((x) => typeof x === 'string')
      ? { sourceChunkHashes: m.source_hashes as string[] }
      : {}),
    ...(kind ? { adversarial: { kind, premise: text(adversarial.premise) ?? '' } } : {}),
    generator: text(generator.model) ?? '',
    promptVersion: text(generator.prompt_version) ?? '',
  };
}

export interface PublishedReview {
  status: 'accepted' | 'unreviewed';
  /** The version was published with `golden review --apply --unreviewed`, before anyone decided on anything. */
  published_without_review?: true;
}

export function goldenItem(
  datasetName: string,
  c: Candidate,
  split: Split,
  review: PublishedReview,
  candidatesDataset: string,
): DatasetItemBody {
  return {
    datasetName,
    id: publishedItemId(datasetName, c.id),
    input: { question: c.question },
    expectedOutput: { answer: c.reference },
    status: 'ACTIVE',
    metadata: {
      type: c.stratum,
      split,
      source_chunks: c.sourceChunkIds,
      ...(c.sourceChunkHashes ? { source_hashes: c.sourceChunkHashes } : {}),
      generator: { model: c.generator, prompt_version: c.promptVersion },
      review,
      golden_id: c.id,
      lineage: lineageKey(c.sourceChunkIds[0] ?? '', c.stratum),
      language: c.language,
      ...(c.adversarial ? { adversarial: { kind: c.adversarial.kind, premise: c.adversarial.premise } } : {}),
      candidates: candidatesDataset,
    },
  };
}

/**
 * An item's lineage: its seed chunk's id and its stratum, never the texts, so an item regenerated because its
 * chunks changed keeps it and `golden diff` reports it as changed. The questions of one seed share it.
 */
export function lineageKey(seedChunkId: string, stratum: string): string {
  return sha256('ragwatch-golden-lineage-v1', seedChunkId, stratum).slice(0, 24);
}

/** What `golden diff` compares of a published item. */
export interface GoldenItemView {
  goldenId: string;
  itemId: string;
  question: string;
  reference: string;
  stratum: string;
  split: string;
  active: boolean;
  /** Its version was published with `golden review --apply --unreviewed`. */
  publishedWithoutReview: boolean;
  /** `lineageKey` of the item (null for an item ragwatch did not write). */
  lineage: string | null;
  /** Hashes of its source chunks' texts as generated (empty when the item has none). */
  sourceHashes: string[];
}

export function goldenItemView(item: DatasetItem): GoldenItemView {
  const m = obj(item.metadata);
  return {
    goldenId: text(m.golden_id) ?? item.id,
    itemId: item.id,
    question: text(obj(item.input).question) ?? (typeof item.input === 'string' ? item.input : ''),
    reference:
      text(obj(item.expectedOutput).answer) ?? (typeof item.expectedOutput === 'string' ? item.expectedOutput : ''),
    stratum: text(m.type) ?? 'unknown',
    split: text(m.split) ?? 'unknown',
    active: item.status === 'ACTIVE',
    publishedWithoutReview: obj(m.review).published_without_review === true,
    lineage: text(m.lineage),
    sourceHashes: Array.isArray(m.source_hashes)
      ? m.source_hashes.filter((x): x is string => typeof x === 'string')
      : [],
  };
}
