/** Options shared by the judge (chat) and embeddings clients. */
import type { RequestEvent } from './retry.js';

export type { RequestEvent };

export interface TransportOptions {
  /** OpenAI-compatible base URL, e.g. `http://vllm:8000/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** HTTP requests in flight at once (default 16 for chat, 4 for embeddings). */
  concurrency?: number;
  /** Deadline of each attempt, in milliseconds. */
  timeoutMs?: number;
  /** Attempts per call, the first included. */
  maxAttempts?: number;
  /** First backoff ceiling (default 500 ms), doubled per attempt up to `backoffMaxMs` (default 20 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Longest server Retry-After honoured (default 60 s). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Called once per HTTP attempt. */
  onRequest?: (event: RequestEvent) => void;
}
