/**
 * The embeddings client: its own base URL and model (e.g. bge-m3 on a second vLLM), `encoding_format:
 * 'float'` always (openai 6.x otherwise asks for base64 and decodes it itself), inputs batched, vectors
 * cached for the client's lifetime (identical texts are embedded once, also across concurrent calls), and
 * the judge client's retry policy.
 */
import OpenAI from 'openai';
import { backoffs, Limiter, sleep } from '../internal/index.js';
import type { TransportOptions } from './options.js';
import { withRetries, type AttemptResult, type RetryPolicy } from './retry.js';
import { JudgeCallError, type EmbeddingUsage, type EmbeddingsClient } from './types.js';

export interface EmbeddingsClientOptions extends TransportOptions {
  /** Inputs per request (default 64). */
  batchSize?: number;
  /** Sent as `dimensions` when set (Matryoshka models). */
  dimensions?: number;
  /** Cached vectors kept at most (default 100 000; the oldest go first). */
  cacheSize?: number;
}

export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const openai = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || 'EMPTY',
    maxRetries: 0,
    timeout: (options.timeoutMs ?? 60_000) + 1_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const policy: RetryPolicy = {
    kind: 'embeddings',
    maxAttempts: options.maxAttempts ?? 4,
    timeoutMs: options.timeoutMs ?? 60_000,
    backoffBaseMs: options.backoffBaseMs ?? backoffs.judge.baseMs,
    backoffMaxMs: options.backoffMaxMs ?? backoffs.judge.maxMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? backoffs.judge.maxRetryAfterMs,
    limiter: new Limiter(options.concurrency ?? 4),
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  };
  const now = policy.now;
  const batchSize = options.batchSize ?? 64;
  const cacheSize = options.cacheSize ?? 100_000;
  const cache = new Map<string, number[]>();
  const inFlight = new Map<string, Promise<number[]>>();

  function remember(text: string, vector: number[]): void {
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(text, vector);
  }

  async function embedBatch(
    texts: string[],
    signal: AbortSignal | undefined,
    usage: EmbeddingUsage,
  ): Promise<number[][]> {
    try {
      const outcome = await withRetries<number[][]>(
        policy,
        `embeddings request (${texts.length} inputs)`,
        signal,
        async (_n, _previous, attemptSignal) => {
          const response = await openai.embeddings.create(
            {
              model: options.model,
              input: texts,
              encoding_format: 'float',
              ...(options.dimensions ? { dimensions: options.dimensions } : {}),
            },
            { signal: attemptSignal },
          );
          return readVectors(response, texts.length);
        },
      );
      usage.requests += outcome.attempts;
      usage.promptTokens += outcome.promptTokens;
      return outcome.value;
    } catch (err) {
      // Failed attempts count too: the server received them.
      const spent = err instanceof JudgeCallError ? err.usage : undefined;
      usage.requests += spent?.calls ?? (err as { attempts?: number }).attempts ?? 0;
      usage.promptTokens += spent?.promptTokens ?? 0;
      throw err;
    }
  }

  async function embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][]; usage: EmbeddingUsage }> {
    const started = now();
    const usage: EmbeddingUsage = { requests: 0, promptTokens: 0, latencyMs: 0 };
    const missing = [...new Set(texts.filter((t) => !cache.has(t) && !inFlight.has(t)))];
    for (let i = 0; i < missing.length; i += batchSize) {
      const batch = missing.slice(i, i + batchSize);
      const request = embedBatch(batch, signal, usage);
      batch.forEach((text, j) => {
        const one = request.then((vectors) => {
          remember(text, vectors[j]!);
          return vectors[j]!;
        });
        one.catch(() => undefined).finally(() => inFlight.delete(text));
        inFlight.set(text, one);
      });
    }
    const vectors = await Promise.all(texts.map((t) => cache.get(t) ?? inFlight.get(t)!));
    usage.latencyMs = now() - started;
    return { vectors: vectors.map((v) => [...v]), usage };
  }

  return { model: options.model, embed };
}

function readVectors(response: OpenAI.CreateEmbeddingResponse, expected: number): AttemptResult<number[][]> {
  const promptTokens = response.usage?.prompt_tokens ?? 0;
  const invalid = (message: string): AttemptResult<number[][]> => ({
    ok: false,
    failure: { kind: 'invalid_response', message, retryable: true },
    promptTokens,
    completionTokens: 0,
  });
  const data = Array.isArray(response.data) ? [...response.data] : [];
  if (data.length !== expected) return invalid(`expected ${expected} vectors, got ${data.length}`);
  data.sort((a, b) => a.index - b.index);
  let dim: number | undefined;
  // An embeddings server that answers 200 with zeros (or one vector for every text) would turn every answer
  // relevancy into a score: a zero vector has no direction, and the texts of a batch are distinct (the batch is
  // deduplicated), so two equal vectors mean the server did not embed them. Either is the server's fault.
  const seen = new Map<string, number>();
  for (const item of data) {
    const v = item.embedding as unknown;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      return invalid(`vector ${item.index} is not a list of finite numbers`);
    }
    if (dim !== undefined && v.length !== dim)
      return invalid(`vectors have different dimensions (${dim} and ${v.length})`);
    dim = v.length;
    if ((v as number[]).every((x) => x === 0)) return invalid(`vector ${item.index} is all zeros`);
    const key = (v as number[]).join(',');
    const twin = seen.get(key);
    if (twin !== undefined) return invalid(`vectors ${twin} and ${item.index} are identical for different texts`);
    seen.set(key, item.index);
  }
  return { ok: true, value: data.map((d) => d.embedding), promptTokens, completionTokens: 0 };
}
