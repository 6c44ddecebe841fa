/**
 * What the golden-set builder needs from the outside, as small interfaces: `edges.ts` wires them to Langfuse,
 * the judge, the anonymizer and the state store; tests can wire anything with the same shape.
 */
import type { InputError } from '../errors.js';
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
  /** Why `ensure` would refuse the queue of that name (it exists without the review's score configs), else null. */
  conflict(name: string): Promise<InputError | null>;
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

export type { Clock } from '../runtime/index.js';
