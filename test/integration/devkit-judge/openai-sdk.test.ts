import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';

const claimsSchema = {
  type: 'object',
  properties: {
    claims: {
      type: 'array',
      items: {
        type: 'object',
        properties: { claim: { type: 'string' }, supported: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['claim', 'supported', 'reason'],
        additionalProperties: false,
      },
    },
  },
  required: ['claims'],
  additionalProperties: false,
};

const redisPrompt =
  'question: What is Redis?\n' +
  'context: Redis is an in-memory data store. It supports persistence with RDB snapshots.\n' +
  'answer: Redis is an in-memory data store. Redis was written in Java.';

describe('judge stand-in through the openai SDK', () => {
  let server: JudgeServer;
  let client: OpenAI;

  beforeEach(async () => {
    server = await startJudgeServer();
    client = new OpenAI({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers json_schema requests with schema-valid JSON and cl100k usage', async () => {
    const completion = await client.chat.completions.create({
      model: server.model,
      temperature: 0,
      seed: 42,
      max_tokens: 512,
      messages: [
        { role: 'system', content: 'Break the answer into claims and judge each against the context.' },
        { role: 'user', content: redisPrompt },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'claims', strict: true, schema: claimsSchema } },
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    const value = JSON.parse(choice.message.content ?? '') as { claims: Array<{ claim: string; supported: boolean }> };
    expect(value.claims.map((c) => c.supported)).toEqual([true, false]);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(20);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(10);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it("rejects n > 1 at temperature 0 with vLLM's message and status", async () => {
    const error = await client.chat.completions
      .create({ model: server.model, temperature: 0, n: 3, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const e = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.error).toEqual({
      message: 'n must be 1 when using greedy sampling, got 3.',
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
  });

  it('serves float and base64 embeddings that decode to the same vector', async () => {
    const asFloat = await client.embeddings.create({
      model: server.embeddingModel,
      input: ['Redis keeps data in memory'],
      encoding_format: 'float',
    });
    const asBase64 = await client.embeddings.create({
      model: server.embeddingModel,
      input: ['Redis keeps data in memory'],
    });
    const a = asFloat.data[0]!.embedding;
    const b = asBase64.data[0]!.embedding;
    expect(a).toHaveLength(256);
    expect(b).toHaveLength(256);
    a.forEach((x, i) => expect(b[i]).toBeCloseTo(x, 6));
  });
});
