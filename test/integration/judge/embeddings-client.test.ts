import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lexicalEmbedding, startJudgeServer, type FaultKind, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import {
  createEmbeddingsClient,
  JudgeCallError,
  type EmbeddingsClientOptions,
  type RequestEvent,
} from '../../../src/judge/index.js';
import { recordingSleep } from './helpers.js';

describe('embeddings client against the stand-in', () => {
  let server: JudgeServer;
  let events: RequestEvent[];
  let backoff: ReturnType<typeof recordingSleep>;

  beforeEach(async () => {
    server = await startJudgeServer({ embeddingDim: 64 });
    events = [];
    backoff = recordingSleep();
  });
  afterEach(async () => {
    await server.close();
  });

  const client = (extra: Partial<EmbeddingsClientOptions> = {}) =>
    createEmbeddingsClient({
      baseUrl: server.url,
      model: server.embeddingModel,
      batchSize: 2,
      maxAttempts: 3,
      timeoutMs: 5000,
      sleep: backoff.sleep,
      random: () => 0.5,
      onRequest: (e) => events.push(e),
      ...extra,
    });

  it('always asks for float vectors, in batches, in input order', async () => {
    const texts = ['uno dos', 'one two', 'three four', 'five six', 'seven'];
    const { vectors, usage } = await client().embed(texts);
    expect(vectors).toHaveLength(5);
    vectors.forEach((v, i) => v.forEach((x, j) => expect(x).toBeCloseTo(lexicalEmbedding(texts[i]!, 64)[j]!, 12)));
    expect(server.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([
      ['uno dos', 'one two'],
      ['three four', 'five six'],
      ['seven'],
    ]);
    expect(server.requests.every((r) => (r.body as { encoding_format?: string }).encoding_format === 'float')).toBe(
      true,
    );
    expect(usage.requests).toBe(3);
    expect(usage.promptTokens).toBeGreaterThan(0);
  });

  it('embeds each distinct text once for the client lifetime', async () => {
    const c = client();
    const first = await c.embed(['alpha', 'beta', 'alpha']);
    expect(first.vectors[0]).toEqual(first.vectors[2]);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as { input: string[] }).input).toEqual(['alpha', 'beta']);
    const again = await c.embed(['beta', 'alpha']);
    expect(again.usage.requests).toBe(0);
    expect(again.vectors).toEqual([first.vectors[1], first.vectors[0]]);
    const concurrent = await Promise.all([c.embed(['gamma']), c.embed(['gamma', 'delta'])]);
    expect(concurrent[0].vectors[0]).toEqual(concurrent[1].vectors[0]);
    const inputs = server.requests.slice(1).flatMap((r) => (r.body as { input: string[] }).input);
    expect(inputs.sort()).toEqual(['delta', 'gamma']);
  });

  it('returns scripted vectors exactly', async () => {
    server.script.embedding('question', [1, 0, 0]).embedding('generated', [0.6, 0.8, 0]);
    const { vectors } = await client().embed(['question', 'generated']);
    expect(vectors).toEqual([
      [1, 0, 0],
      [0.6, 0.8, 0],
    ]);
  });

  it('fails a zero vector after its retries instead of returning it (a cosine of 0 would be scored 0)', async () => {
    server.script.embedding('question', [0, 0, 0]).embedding('generated', [0.6, 0.8, 0]);
    const error = await client()
      .embed(['question', 'generated'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeCallError);
    expect(error).toMatchObject({ kind: 'invalid_response', attempts: 3, retryable: true });
    expect((error as Error).message).toContain('all zeros');
  });

  it('fails identical vectors for different texts of one request (the server embedded nothing)', async () => {
    server.script.embedding('question', [0.6, 0.8, 0]).embedding('generated', [0.6, 0.8, 0]);
    const error = await client()
      .embed(['question', 'generated'])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_response', attempts: 3 });
    expect((error as Error).message).toContain('identical for different texts');
    // The same text asked twice is one input: its one vector is fine.
    server.script.embedding('again', [0, 1, 0]);
    const { vectors } = await client().embed(['again', 'again']);
    expect(vectors).toEqual([
      [0, 1, 0],
      [0, 1, 0],
    ]);
  });

  it.each(['http_500', 'http_503', 'malformed_json', 'reset'] as FaultKind[])(
    'retries after a %s fault',
    async (fault) => {
      server.faults.next(fault, 1, { route: 'embeddings' });
      const { vectors, usage } = await client().embed(['retry me']);
      expect(vectors[0]).toEqual(lexicalEmbedding('retry me', 64).map((x) => expect.closeTo(x, 12)));
      expect(usage.requests).toBe(2);
      expect(events.map((e) => e.outcome)).toEqual(['retry', 'ok']);
    },
  );

  it('ends a persistent fault in JudgeCallError after maxAttempts, and can embed later', async () => {
    server.faults.always('http_503', { route: 'embeddings' });
    const c = client();
    const error = await c.embed(['will fail']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeCallError);
    expect(error).toMatchObject({ kind: 'http_503', attempts: 3, retryable: true });
    server.faults.clear();
    expect((await c.embed(['will fail'])).usage.requests).toBe(1);
  });
});
