import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { createEmbeddingsClient } from '../../../src/judge/index.js';
import { JudgeCallError } from '../../../src/judge/types.js';
import { prepareSample } from '../../../src/metrics/index.js';
import {
  answerRelevancyRequest,
  claimsInReferenceRequest,
  contextPrecisionRequest,
  contextRecallRequest,
  faithfulnessRequest,
} from '../../../src/metrics/prompts/build.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sample = prepareSample(
  {
    traceId: 't',
    question: 'What latency does Redis offer?',
    answer: 'Under a millisecond.',
    contexts: ['Redis is in memory.', 'GET is fast.'],
    reference: 'Sub-millisecond.',
    meta: {},
  },
  defaultMetricsOptions(),
);
const requests = [
  faithfulnessRequest(sample),
  answerRelevancyRequest(sample, 3),
  contextPrecisionRequest(sample),
  contextRecallRequest(sample),
  claimsInReferenceRequest(sample, ['a', 'b', 'c']),
];

describe('the stand-in in fuzzing mode', () => {
  it('answers every ragwatch task with values valid against the schema that was sent, drawn from the edges', async () => {
    server = await startJudgeServer({ fuzz: { seed: 7 } });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const ajv = new Ajv2020({ strict: false });
    const contents = new Set<string>();
    for (let i = 0; i < 40; i++) {
      for (const r of requests) {
        const completion = await client.chat.completions.create({
          model: 'm',
          temperature: 0,
          messages: r.messages,
          max_tokens: 8192,
          response_format: { type: 'json_schema', json_schema: { name: r.name, strict: true, schema: r.schema } },
        });
        const content = completion.choices[0]!.message.content ?? '';
        const validate = ajv.compile(r.schema);
        expect(validate(JSON.parse(content)), `${r.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        contents.add(content);
      }
    }
    // Random, not the rules' one answer per task (the positional tasks have only 2^K answers).
    expect(contents.size).toBeGreaterThan(100);
    expect(new Set(server.requests.map((r) => r.answeredBy))).toEqual(new Set(['fuzz']));
    const stats = server.fuzzStats()!;
    expect(stats.chatAnswers).toBe(200);
    for (const edge of [
      'empty_array',
      'max_items',
      'long_array',
      'duplicate_items',
      'blank_string',
      'odd_unicode',
      'markup_string',
    ]) {
      expect(stats.edges[edge as keyof typeof stats.edges] ?? 0, edge).toBeGreaterThan(0);
    }
  });

  it('scripted answers still win, and the normal stand-in reports no fuzzing', async () => {
    server = await startJudgeServer({ fuzz: true });
    server.script.answer({
      schema: 'ragwatch_context_precision',
      value: {
        chunks: [
          { chunk: 1, useful: 1 },
          { chunk: 2, useful: 0 },
        ],
      },
    });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const r = requests[2]!;
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: r.messages,
      response_format: { type: 'json_schema', json_schema: { name: r.name, strict: true, schema: r.schema } },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({
      chunks: [
        { chunk: 1, useful: 1 },
        { chunk: 2, useful: 0 },
      ],
    });
    await server.close();
    server = await startJudgeServer();
    expect(server.fuzzStats()).toBeNull();
  });

  it('embeddings: one vector per input of the served dimension, from the vector edge cases', async () => {
    server = await startJudgeServer({ fuzz: { seed: 2 }, embeddingDim: 32 });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    for (let i = 0; i < 40; i++) {
      const res = await client.embeddings.create({ model: 'e', input: ['q', 'a', 'b', 'c'], encoding_format: 'float' });
      expect(res.data).toHaveLength(4);
      for (const d of res.data) expect(d.embedding).toHaveLength(32);
      // Never a zero vector, never the same vector twice: what ragwatch refuses as a broken server.
      for (const d of res.data) expect(d.embedding.some((x) => x !== 0)).toBe(true);
      expect(new Set(res.data.map((d) => d.embedding.join(','))).size).toBe(4);
    }
    const edges = server.fuzzStats()!.edges;
    for (const edge of [
      'vector_random',
      'vector_near_zero',
      'vector_opposite',
      'vector_near_identical',
      'vector_extreme',
    ] as const)
      expect(edges[edge] ?? 0, edge).toBeGreaterThan(0);
  });
});

describe('embeddings of the wrong count or dimension', () => {
  const client = (s: JudgeServer) =>
    createEmbeddingsClient({ baseUrl: s.url, model: 'e', maxAttempts: 3, sleep: async () => {}, backoffBaseMs: 1 });

  it.each(['wrong_count', 'wrong_dimension'] as const)(
    '%s is retried, then the call fails with what it cost',
    async (kind) => {
      server = await startJudgeServer();
      server.faults.always(kind, { route: 'embeddings' });
      const error = await client(server)
        .embed(['q', 'a', 'b'])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JudgeCallError);
      expect((error as JudgeCallError).kind).toBe('invalid_response');
      expect((error as JudgeCallError).usage?.calls).toBe(3);
      expect((error as JudgeCallError).usage?.promptTokens).toBeGreaterThan(0);
      expect(server.faults.counts()[kind]).toBe(3);
    },
  );

  it.each(['wrong_count', 'wrong_dimension'] as const)('%s once: the retry gets good vectors', async (kind) => {
    server = await startJudgeServer();
    server.faults.next(kind, 1, { route: 'embeddings' });
    const { vectors, usage } = await client(server).embed(['q', 'a']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(vectors[1]!.length);
    expect(usage.requests).toBe(2);
  });

  it('a chat-only fault cannot be set on embeddings, nor an embeddings-only one on chat', async () => {
    server = await startJudgeServer();
    expect(() => server!.faults.next('wrong_count', 1, { route: 'chat' })).toThrow(/does not apply/);
    expect(() => server!.faults.next('truncated', 1, { route: 'embeddings' })).toThrow(/does not apply/);
  });
});
