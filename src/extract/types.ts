import type { RagwatchConfig } from '../config/index.js';
import type { RagSample } from '../sample.js';
import type { Framing } from './prompt-split.js';

/** Why a trace yields no RAG sample; each is counted (`skipped{reason}`). */
export const skipReasons = ['no_question', 'no_answer', 'no_contexts', 'not_rag', 'malformed_trace'] as const;
export type SkipReason = (typeof skipReasons)[number];

/** `online.extract`: per field, the observation (by name and/or type) and a path into it that holds the value. */
export type ExtractMapping = RagwatchConfig['online']['extract'];

/**
 * The rule that found a part of the sample (`docs/integrations.md` lists them):
 * - question: `trace.input`, `observation.input`, `generation.prompt`, `retrieval.input`;
 * - answer: `trace.output`, `generation.output`, `observation.output`;
 * - contexts: `retriever.output`, `retriever.openinference`, `retriever.gen_ai` (what a retrieval step
 *   returned), `documents.passed-along` (a document list handed from step to step), `context-key` (a
 *   `context`/`documents` key in an input or output), `prompt` (documents laid into a prompt);
 * - any part: `mapping` (`online.extract`).
 */
export type PartRule =
  | 'trace.input'
  | 'observation.input'
  | 'generation.prompt'
  | 'retrieval.input'
  | 'trace.output'
  | 'generation.output'
  | 'observation.output'
  | 'retriever.output'
  | 'retriever.openinference'
  | 'retriever.gen_ai'
  | 'documents.passed-along'
  | 'context-key'
  | 'prompt'
  | 'mapping';

export interface FoundPart {
  rule: PartRule;
  /** Where, e.g. `trace.input`, `generation:ChatOpenAI`, `retriever:VectorStoreRetriever(+1)`. */
  source: string;
  observationIds: string[];
}

export interface FoundContexts extends FoundPart {
  /** Read from what retrieval returned (preferred), from the prompt, or from an explicit mapping. */
  from: 'retrieval' | 'prompt' | 'mapping';
  /** For contexts read from a prompt: how the documents were laid out. */
  framing?: Framing;
}

export type ExtractResult =
  | {
      ok: true;
      sample: RagSample;
      /** How the parts were found, e.g. `question=trace.input;answer=generation:ChatOpenAI;contexts=retriever:VectorStoreRetriever`. */
      shape: string;
      parts: { question: FoundPart; answer: FoundPart; contexts: FoundContexts };
    }
  | {
      ok: false;
      reason: SkipReason;
      detail?: string;
      /** What was looked at, one line each (observation names and counts, never trace text). */
      checked?: string[];
    };
