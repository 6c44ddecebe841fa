/** One RAG interaction as ragwatch scores it: what was asked, what was answered, what was retrieved. */
export interface RagSample {
  /** Langfuse trace ID for online samples, the dataset item ID for golden-set items, or the input line's id. */
  traceId: string;
  question: string;
  answer: string;
  /** Retrieved chunks, in retrieval order. */
  contexts: string[];
  /** Reference (ground-truth) answer: golden-set items only. */
  reference?: string;
  language?: 'es' | 'en';
  meta: Record<string, unknown>;
}

/** Ends a text that was cut (by a token budget before the judge, or by the byte budget when a trace is read). */
export const CUT_MARKER = ' […]';
