import type { RagwatchConfig } from '../config/schema.js';
import type { RagSample } from '../sample.js';

/** Why a trace yields no RAG sample; each is counted (`skipped{reason}`). */
export const skipReasons = ['no_question', 'no_answer', 'no_contexts', 'not_rag', 'malformed_trace'] as const;
export type SkipReason = (typeof skipReasons)[number];

/** `online.extract`: per field, the observation (by name and/or type) and a path into it that holds the value. */
export type ExtractMapping = RagwatchConfig['online']['extract'];

export type ExtractResult =
  | {
      ok: true;
      sample: RagSample;
      /** How the parts were found, e.g. `question=trace.input;answer=generation:ChatOpenAI;contexts=retriever-span:VectorStoreRetriever`. */
      shape: string;
    }
  | { ok: false; reason: SkipReason; detail?: string };
