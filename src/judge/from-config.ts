/** Builds the judge and embeddings clients from ragwatch's configuration (`judge` and `embeddings` sections). */
import type { RagwatchConfig } from '../config/index.js';
import type { Runtime } from '../runtime/index.js';
import { createJudgeClient } from './client.js';
import { createEmbeddingsClient } from './embeddings-client.js';
import { withErrorEnvelope } from './error-envelope.js';
import type { RequestEvent } from './retry.js';
import type { EmbeddingsClient, JudgeClient } from './types.js';

export interface JudgeClientDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRequest?: (event: RequestEvent) => void;
}

export function judgeClientsFromConfig(
  config: Pick<RagwatchConfig, 'judge' | 'embeddings'>,
  deps: JudgeClientDeps = {},
): { judge: JudgeClient; embeddings: EmbeddingsClient } {
  const j = config.judge;
  const e = config.embeddings;
  // The server's own words on every error, whatever the shape of its error body.
  deps = { ...deps, fetch: withErrorEnvelope(deps.fetch) };
  const judge = createJudgeClient({
    ...deps,
    baseUrl: j.baseUrl,
    apiKey: j.apiKey,
    model: j.model,
    concurrency: j.concurrency,
    timeoutMs: j.timeoutMs,
    maxAttempts: j.maxAttempts,
    temperature: j.temperature,
    seed: j.seed ?? null,
    maxTokens: j.maxTokens,
    disableThinking: j.disableThinking,
    queueOrder: j.queueOrder,
  });
  const embeddings = createEmbeddingsClient({
    ...deps,
    baseUrl: e.baseUrl ?? j.baseUrl,
    apiKey: e.apiKey ?? j.apiKey,
    model: e.model,
    batchSize: e.batchSize,
    concurrency: e.concurrency ?? j.concurrency,
    timeoutMs: e.timeoutMs,
    maxAttempts: e.maxAttempts,
  });
  return { judge, embeddings };
}

/** The judge clients' edges from the runtime: transport, waits, jitter, and its requests observed. */
export function judgeDepsOf(runtime: Runtime): JudgeClientDeps {
  return {
    fetch: runtime.fetch,
    sleep: runtime.sleep,
    random: runtime.random,
    onRequest: (e) => runtime.metrics.observeJudgeRequest(e),
  };
}
