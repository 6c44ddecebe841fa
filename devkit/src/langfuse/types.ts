/**
 * Records held by the local Langfuse stand-in. Times are epoch milliseconds (cheap to keep 100k of them);
 * input/output are kept as the raw strings Langfuse stores (JSON text, or a plain string as sent).
 */

export type Personality = 'v3' | 'v4';

export type ObservationLevel = 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR';

export const OBSERVATION_TYPES = [
  'SPAN',
  'GENERATION',
  'EVENT',
  'AGENT',
  'TOOL',
  'CHAIN',
  'RETRIEVER',
  'EVALUATOR',
  'EMBEDDING',
  'GUARDRAIL',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export interface TraceRecord {
  id: string;
  timestamp: number;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  version: string | null;
  input: string | null;
  output: string | null;
  metadata: Record<string, unknown> | null;
  tags: string[];
  public: boolean;
  bookmarked: boolean;
  environment: string;
  createdAt: number;
  updatedAt: number;
  /** When the stand-in first received it (injected clock): read lag counts from here. */
  ingestedAt: number;
  /** Not listable/gettable before this time (a write-side read-lag knob pushes it into the future). */
  visibleAt: number;
}

export interface ExperimentFields {
  id: string;
  name: string | null;
  description: string | null;
  datasetId: string | null;
  itemId: string | null;
  itemVersion: string | null;
  itemRootObservationId: string | null;
  itemExpectedOutput: string | null;
  metadata: Record<string, unknown> | null;
  itemMetadata: Record<string, unknown> | null;
}

export interface ObservationRecord {
  id: string;
  traceId: string | null;
  type: ObservationType;
  name: string | null;
  startTime: number;
  endTime: number | null;
  completionStartTime: number | null;
  model: string | null;
  modelParameters: Record<string, unknown> | null;
  input: string | null;
  output: string | null;
  metadata: Record<string, unknown> | null;
  level: ObservationLevel;
  statusMessage: string | null;
  parentObservationId: string | null;
  version: string | null;
  environment: string;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  promptName: string | null;
  promptVersion: number | null;
  /** Span marked by the SDK as the logical root although it has a physical parent. */
  isAppRoot: boolean;
  /** Trace-level attributes the span carried (OTel path), denormalized like Langfuse's events table. */
  userId: string | null;
  sessionId: string | null;
  experiment: ExperimentFields | null;
  createdAt: number;
  updatedAt: number;
  ingestedAt: number;
  visibleAt: number;
}

export type ScoreDataType = 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN' | 'CORRECTION' | 'TEXT';
export type ScoreSource = 'API' | 'EVAL' | 'ANNOTATION';

export interface ScoreRecord {
  id: string;
  name: string;
  /** Numeric value (0 for TEXT/CORRECTION, category value for CATEGORICAL). */
  value: number;
  stringValue: string | null;
  dataType: ScoreDataType;
  source: ScoreSource;
  traceId: string | null;
  observationId: string | null;
  sessionId: string | null;
  datasetRunId: string | null;
  comment: string | null;
  metadata: Record<string, unknown> | null;
  configId: string | null;
  queueId: string | null;
  environment: string;
  /** The event timestamp: with id and name, its UTC date is the score's identity. */
  timestamp: number;
  createdAt: number;
  updatedAt: number;
}

export type ScoreConfigDataType = 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL' | 'TEXT';

export interface ScoreConfigRecord {
  id: string;
  name: string;
  dataType: ScoreConfigDataType;
  isArchived: boolean;
  minValue: number | null;
  maxValue: number | null;
  categories: { value: number; label: string }[] | null;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetRecord {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  inputSchema: unknown;
  expectedOutputSchema: unknown;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetItemRecord {
  id: string;
  datasetId: string;
  status: 'ACTIVE' | 'ARCHIVED';
  input: unknown;
  expectedOutput: unknown;
  metadata: unknown;
  sourceTraceId: string | null;
  sourceObservationId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetRunRecord {
  id: string;
  name: string;
  datasetId: string;
  description: string | null;
  metadata: unknown;
  createdAt: number;
  updatedAt: number;
}

export interface DatasetRunItemRecord {
  id: string;
  datasetRunId: string;
  datasetItemId: string;
  traceId: string;
  observationId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A dataset run as ragwatch sees it, whichever way the personality records it. */
export interface DatasetRunView {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  datasetId: string;
  datasetName: string;
  createdAt: number;
  updatedAt: number;
  items: { id: string; datasetItemId: string; traceId: string; observationId: string | null; createdAt: number }[];
}
