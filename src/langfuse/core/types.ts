import type { ReadCut } from './read-budget.js';

/** The two read paths Langfuse servers offer: v3 (traces API) and v4 (v2 observations API). */
export type ApiGeneration = 'v3' | 'v4';

/** One trace as listed: just enough to filter and sample it. */
export interface TraceSummary {
  id: string;
  name: string | null;
  /** ISO 8601 (v3: the trace timestamp; v4: the root observation's start time). */
  timestamp: string;
  environment: string;
  tags: string[];
  /** Present only when metadata filters asked for it. */
  metadata?: unknown;
}

/** One observation of a fetched trace, the same shape whatever the API generation. */
export interface ObservationRecord {
  id: string;
  parentObservationId: string | null;
  /** SPAN, GENERATION, EVENT, RETRIEVER, AGENT, TOOL, CHAIN, EMBEDDING, ... (upper case). */
  type: string;
  name: string | null;
  startTime: string;
  /** JSON-looking strings are parsed; other strings stay strings. */
  input: unknown;
  output: unknown;
  metadata: unknown;
}

/** A fetched trace, normalised: observations sorted by start time. */
export interface TraceRecord {
  /** Present when the trace was larger than its read budget: what was cut (flagged on its scores). */
  readCut?: ReadCut;
  id: string;
  name: string | null;
  timestamp: string;
  environment: string;
  input: unknown;
  output: unknown;
  metadata: unknown;
  tags: string[];
  observations: ObservationRecord[];
}
