import type { PiiKind } from './pii.js';
import type { DemoLanguage } from './types.js';

/**
 * A demo trace as pure data: what the fictional support assistant did for one request. The generator
 * decides every word and timestamp; the emitters only translate it into the calls a real integration
 * would make through the Langfuse SDKs.
 */
export type DemoShape = 'langchain' | 'openai' | 'tracing' | 'ingestion';

/** Integration variants within a shape (how real code bases differ). */
export type DemoVariant =
  /** LangChain callback handler on a retrieval chain (RunnableSequence → RunnableMap → VectorStoreRetriever, prompt, ChatOpenAI, parser). */
  | 'langchain-chain'
  /** `@langfuse/openai` wrapper alone: one generation is the whole trace, contexts pasted into the messages. */
  | 'openai-bare'
  /** Hand-made root span + retriever span + wrapped OpenAI generation. */
  | 'openai-with-retriever'
  /** `@langfuse/tracing`: root span with trace input/output set, retriever and generation children. */
  | 'tracing-root-io'
  /** `@langfuse/tracing`: question and answer only on inner observations, nothing on the root. */
  | 'tracing-inner-io'
  /** `@langfuse/tracing`: an agent calling a knowledge-base tool, then a generation. */
  | 'tracing-agent'
  /** Older SDKs: trace-create / span-create / generation-create events on the ingestion API. */
  | 'ingestion-legacy';

export type DemoKind = 'rag' | 'no-retrieval' | 'empty-context' | 'non-rag';

/**
 * How the answer relates to the retrieved context: `grounded` answers from it, `unsupported-claim` adds a
 * claim the context does not support (or invents one when nothing was retrieved), `evasive` says nothing
 * concrete, `off-topic` answers another question, `abstains` says the documentation has no answer.
 */
export type AnswerQuality = 'grounded' | 'unsupported-claim' | 'evasive' | 'off-topic' | 'abstains' | 'not-applicable';

export interface DemoDocument {
  pageContent: string;
  metadata: {
    source: string;
    title: string;
    chunkId: string;
    lang: DemoLanguage;
    loc?: { lines: { from: number; to: number } };
  };
  /** Similarity the retriever reported. */
  score: number;
}

export interface DemoChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface DemoUsage {
  input: number;
  output: number;
  total: number;
}

export interface DemoRetrievalStep {
  kind: 'retrieval';
  /** Which index was searched: the knowledge base or the customer-history store. */
  index: 'knowledge-base' | 'customer-history';
  query: string;
  topK: number;
  documents: DemoDocument[];
  startTime: Date;
  endTime: Date;
}

export interface DemoGenerationStep {
  kind: 'generation';
  purpose: 'answer' | 'rewrite-query' | 'translate' | 'classify' | 'chat';
  /** Requested model name. */
  model: string;
  /** Model name the provider reports back. */
  responseModel: string;
  temperature: number;
  maxTokens?: number;
  messages: DemoChatMessage[];
  output: string;
  usage: DemoUsage;
  startTime: Date;
  endTime: Date;
}

export type DemoStep = DemoRetrievalStep | DemoGenerationStep;

export interface DemoTrace {
  /** 32 lowercase hex characters: the Langfuse trace id the trace lands under. */
  id: string;
  /** Position in the generated list. */
  index: number;
  shape: DemoShape;
  variant: DemoVariant;
  kind: DemoKind;
  quality: AnswerQuality;
  language: DemoLanguage;
  /** Trace name as the integration sets it (LangChain names the trace after the root chain). */
  name: string;
  /** `undefined` leaves Langfuse's `default`. */
  environment?: string;
  userId: string;
  sessionId: string;
  tags: string[];
  release?: string;
  startTime: Date;
  endTime: Date;
  /** What the user sent, as it reaches the assistant (personal data included). */
  question: string;
  /** What the assistant answered. */
  answer: string;
  steps: DemoStep[];
  /** The golden item the question was drawn from, when there is one. */
  goldenItemId?: string;
  /** Flags worth knowing when reading scores. */
  traits: {
    /** The retriever missed every chunk holding the answer. */
    retrievalMiss: boolean;
    multipleRetrievals: boolean;
    multipleGenerations: boolean;
  };
  /** Kinds of personal data present anywhere in the trace. */
  pii: PiiKind[];
  /** Every personal value written into the trace, verbatim (for leak checks after anonymization). */
  personalData: Array<{ kind: PiiKind; value: string }>;
  /** The RAG sample an extractor should produce from this trace; `null` for non-RAG calls. */
  expected: { question: string; answer: string; contexts: string[] } | null;
}

export function retrievals(trace: DemoTrace): DemoRetrievalStep[] {
  return trace.steps.filter((s): s is DemoRetrievalStep => s.kind === 'retrieval');
}

export function generations(trace: DemoTrace): DemoGenerationStep[] {
  return trace.steps.filter((s): s is DemoGenerationStep => s.kind === 'generation');
}
