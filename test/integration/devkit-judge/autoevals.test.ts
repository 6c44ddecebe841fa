import OpenAI from 'openai';
import * as autoevals from 'autoevals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';

// Braintrust's autoevals, unchanged, against the stand-in: forced tool calls and embeddings as vLLM serves them.
describe('autoevals against the stand-in', () => {
  let server: JudgeServer;
  let client: OpenAI;
  const sample = {
    input: 'What is Redis?',
    output: 'Redis is an in-memory data store. Redis was written in Java.',
    context: 'Redis is an in-memory data store used as a cache. Redis persists data with RDB snapshots.',
    expected: 'Redis is an in-memory data store.',
  };

  beforeAll(async () => {
    server = await startJudgeServer();
    client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    // Scorers that build nested scorers (ContextEntityRecall → EmbeddingSimilarity) read the global client.
    autoevals.init({ client: client as never, defaultModel: server.model });
  });
  afterAll(async () => {
    autoevals.init({});
    await server.close();
  });

  const run = (scorer: (args: never) => Promise<{ score: number | null }>) =>
    scorer({ ...sample, client, model: server.model, embeddingModel: server.embeddingModel } as never);

  it('scores Faithfulness from forced tool calls', async () => {
    const result = await run(autoevals.Faithfulness as never);
    expect(result.score).toBe(0.5);
  });

  it('scores AnswerRelevancy with three forced tool calls and embeddings', async () => {
    const before = server.requests.length;
    const result = await run(autoevals.AnswerRelevancy as never);
    expect(result.score).not.toBeNull();
    expect(result.score!).toBeGreaterThanOrEqual(0);
    expect(result.score!).toBeLessThanOrEqual(1);
    const made = server.requests.slice(before);
    expect(made.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(3);
    expect(made.filter((r) => r.path === '/v1/embeddings').length).toBeGreaterThan(0);
  });

  it.each(['ContextPrecision', 'ContextRelevancy', 'ContextEntityRecall'] as const)(
    'scores %s within [0, 1]',
    async (name) => {
      const result = await run(autoevals[name] as never);
      expect(result.score).not.toBeNull();
      expect(result.score!).toBeGreaterThanOrEqual(0);
      expect(result.score!).toBeLessThanOrEqual(1);
    },
  );
});
