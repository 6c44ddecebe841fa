/**
 * Contracts between the metrics and the judge. The metrics depend only on these interfaces, so they run
 * unchanged against vLLM, the devkit's judge stand-in, or a test double.
 */
import { DependencyError, isOutageKind, statusOfKind } from '../errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface StructuredRequest<T> {
  /** Sent as `response_format.json_schema.name`; identifies the prompt (e.g. `ragwatch_faithfulness_claims`). */
  name: string;
  /** JSON Schema of the answer, sent with `strict: true`. */
  schema: Record<string, unknown>;
  /** Validates the parsed JSON again on arrival (zod); throwing marks the answer unusable and triggers a repair retry. */
  parse: (value: unknown) => T;
  /** Constant instructions and examples first, the sample last, so vLLM's prefix cache serves the constant part. */
  messages: ChatMessage[];
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Cost of one logical judge call, retries included. */
export interface CallUsage {
  /** HTTP requests made (1 + retries). */
  calls: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

export interface StructuredResult<T> {
  value: T;
  usage: CallUsage;
}

export interface JudgeClient {
  readonly model: string;
  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
}

export interface EmbeddingUsage {
  requests: number;
  promptTokens: number;
  latencyMs: number;
}

export interface EmbeddingsClient {
  readonly model: string;
  /** One vector per input, in order. Batched and cached within the client's lifetime. */
  embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][]; usage: EmbeddingUsage }>;
}

/** A judge or embeddings call that did not produce a usable answer after every allowed attempt. */
export class JudgeCallError extends DependencyError {
  readonly dependency = 'judge' as const;

  constructor(
    message: string,
    /** Whether a later attempt (another tick) may succeed: network, 5xx, 429, timeouts, unusable answers. */
    retryable: boolean,
    /** What went wrong last: `http_500`, `timeout`, `connection`, `invalid_json`, `schema_mismatch`, `truncated`, ... */
    kind: string,
    readonly attempts: number,
    /** What the failed attempts cost: the server received (and may have answered) every one of them. */
    readonly usage?: CallUsage,
    options?: { cause?: unknown },
  ) {
    super(message, kind, statusOfKind(kind), retryable, options);
  }

  /** Down or refusing our key, or answering what is not an OpenAI-style answer at all (an HTML page). */
  override get outage(): boolean {
    return isOutageKind(this.kind) || this.kind === 'invalid_response';
  }
}
