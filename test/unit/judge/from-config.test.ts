import { describe, expect, it } from 'vitest';
import { judgeClientsFromConfig } from '../../../src/judge/from-config.js';
import { configSchema } from '../../helpers/config.js';

function capturingFetch() {
  const seen: Array<{ url: string; auth: string | null; body: Record<string, unknown> }> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = (await request.json()) as Record<string, unknown>;
    seen.push({ url: request.url, auth: request.headers.get('authorization'), body });
    const payload = request.url.endsWith('/embeddings')
      ? {
          object: 'list',
          data: [{ index: 0, object: 'embedding', embedding: [1, 0] }],
          model: 'e',
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }
      : {
          id: 'c',
          object: 'chat.completion',
          created: 0,
          model: 'j',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"ok":true}' } }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        };
    return new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetchImpl };
}

const ask = {
  name: 'ok',
  schema: { type: 'object' },
  parse: (v: unknown) => v as { ok: boolean },
  messages: [{ role: 'user' as const, content: 'x' }],
};

describe('judgeClientsFromConfig', () => {
  it('builds both clients from the config; embeddings default to the judge URL and key', async () => {
    const config = configSchema.parse({
      judge: {
        baseUrl: 'http://judge.local:8000/v1',
        model: 'qwen',
        apiKey: 'jk',
        seed: 7,
        maxTokens: 99,
        temperature: 0,
        disableThinking: true,
      },
      embeddings: { model: 'bge-m3' },
    });
    const { seen, fetchImpl } = capturingFetch();
    const { judge, embeddings } = judgeClientsFromConfig(config, { fetch: fetchImpl });
    expect(judge.model).toBe('qwen');
    expect(embeddings.model).toBe('bge-m3');
    await judge.structured(ask);
    await embeddings.embed(['hello']);
    expect(seen[0]).toMatchObject({
      url: 'http://judge.local:8000/v1/chat/completions',
      auth: 'Bearer jk',
      body: {
        model: 'qwen',
        seed: 7,
        max_tokens: 99,
        temperature: 0,
        chat_template_kwargs: { enable_thinking: false },
      },
    });
    expect(seen[1]).toMatchObject({
      url: 'http://judge.local:8000/v1/embeddings',
      auth: 'Bearer jk',
      body: { model: 'bge-m3', encoding_format: 'float', input: ['hello'] },
    });
  });

  it('uses the embeddings section own URL and key when set', async () => {
    const config = configSchema.parse({
      judge: { baseUrl: 'http://judge.local:8000/v1', apiKey: 'jk', disableThinking: false },
      embeddings: { baseUrl: 'http://emb.local:9000/v1', apiKey: 'ek', model: 'bge-m3' },
    });
    const { seen, fetchImpl } = capturingFetch();
    const { judge, embeddings } = judgeClientsFromConfig(config, { fetch: fetchImpl });
    await embeddings.embed(['hello']);
    await judge.structured(ask);
    expect(seen[0]).toMatchObject({ url: 'http://emb.local:9000/v1/embeddings', auth: 'Bearer ek' });
    expect(seen[1]!.body).not.toHaveProperty('chat_template_kwargs');
  });

  it('keeps at most embeddings.concurrency embeddings requests in flight, judge.concurrency when unset', async () => {
    const cases = [
      { judge: 16, embeddings: 1, expected: 1 },
      { judge: 16, embeddings: 3, expected: 3 },
      { judge: 5, embeddings: undefined, expected: 5 },
    ];
    for (const { judge, embeddings: concurrency, expected } of cases) {
      const config = configSchema.parse({
        judge: { baseUrl: 'http://judge.local:8000/v1', concurrency: judge },
        embeddings: { model: 'bge-m3', batchSize: 1, ...(concurrency ? { concurrency } : {}) },
      });
      let open = 0;
      let most = 0;
      const fetchImpl: typeof fetch = async (input, init) => {
        open += 1;
        most = Math.max(most, open);
        const inputs = (JSON.parse(String(init!.body)) as { input: string[] }).input;
        await new Promise((resolve) => setTimeout(resolve, 2));
        open -= 1;
        const data = inputs.map((_, index) => ({ index, object: 'embedding', embedding: [1, 0] }));
        return new Response(
          JSON.stringify({ object: 'list', data, model: 'e', usage: { prompt_tokens: 1, total_tokens: 1 } }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      };
      const { embeddings } = judgeClientsFromConfig(config, { fetch: fetchImpl });
      await embeddings.embed(Array.from({ length: 12 }, (_, i) => `text ${i}`));
      expect(most).toBe(expected);
    }
  });
});
