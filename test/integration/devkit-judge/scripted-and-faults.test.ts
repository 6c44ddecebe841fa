import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer, type JudgeServerOptions } from '@ragwatch/devkit/judge/index.js';

let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: JudgeServerOptions = {}) {
  server = await startJudgeServer(options);
  return { server, client: new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }) };
}

const schema = {
  type: 'object',
  properties: { verdicts: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 1 } } },
  required: ['verdicts'],
  additionalProperties: false,
};

function ask(client: OpenAI, user: string, name = 'verdicts') {
  return client.chat.completions.create({
    model: 'm',
    temperature: 0,
    messages: [{ role: 'user', content: user }],
    response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
  });
}

const content = (c: OpenAI.ChatCompletion) => JSON.parse(c.choices[0]!.message.content ?? 'null') as unknown;

describe('scripted mode', () => {
  it('answers exactly per schema name, per content, most specific first, latest added on ties', async () => {
    const { client, server: s } = await start();
    s.script
      .answer({ schema: 'verdicts', value: { verdicts: [1] } })
      .answer({ match: 'Redis', value: { verdicts: [0, 0] } })
      .answer({ schema: 'verdicts', match: /redis/i, value: { verdicts: [1, 1, 1] } })
      .answer({ schema: 'verdicts', value: { verdicts: [0] } });
    expect(content(await ask(client, 'about Postgres'))).toEqual({ verdicts: [0] });
    expect(content(await ask(client, 'about Redis'))).toEqual({ verdicts: [1, 1, 1] });
    expect(content(await ask(client, 'about Redis', 'other'))).toEqual({ verdicts: [0, 0] });
    expect(s.requests.map((r) => r.answeredBy)).toEqual(['script', 'script', 'script']);
  });

  it('honours times, value functions and raw content', async () => {
    const { client, server: s } = await start();
    s.script
      .answer({ schema: 'verdicts', raw: 'not json', times: 1 })
      .answer({ schema: 'verdicts', value: (r: { lastUser: string }) => ({ verdicts: [r.lastUser.length % 2] }) });
    expect((await ask(client, 'abc')).choices[0]!.message.content).toBe('not json');
    expect(content(await ask(client, 'abc'))).toEqual({ verdicts: [1] });
  });

  it('answers 500 naming the problem when a scripted value breaks the schema', async () => {
    const { client, server: s } = await start();
    s.script.answer({ schema: 'verdicts', value: { verdicts: ['yes'] } });
    const error = await ask(client, 'x').catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(500);
    expect((error as { error: { message: string } }).error.message).toContain('violates the requested schema');
  });

  it('returns scripted embedding vectors exactly, float and base64', async () => {
    const { client, server: s } = await start();
    s.script.embeddings({ 'What is Redis?': [0.91, 0.41, 0] });
    const float = await client.embeddings.create({ model: 'e', input: 'What is Redis?', encoding_format: 'float' });
    expect(float.data[0]!.embedding).toEqual([0.91, 0.41, 0]);
    const b64 = await client.embeddings.create({ model: 'e', input: ['What is Redis?', 'other text'] });
    expect(b64.data[0]!.embedding.map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0.91, 0.41, 0]);
    expect(b64.data[1]!.embedding).toHaveLength(256);
  });
});

describe('fault knobs', () => {
  it('applies next-N faults in order, then answers normally', async () => {
    const { client, server: s } = await start();
    s.faults.next('http_500', 1).next('http_503', 1);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        await ask(client, 'x').then(
          () => 200,
          (e: { status: number }) => e.status,
        ),
      );
    }
    expect(statuses).toEqual([500, 503, 200]);
    expect(s.requests.map((r) => r.fault)).toEqual(['http_500', 'http_503', undefined]);
  });

  it('keeps a persistent fault on every request until cleared, per route', async () => {
    const { client, server: s } = await start();
    s.faults.always('malformed_json');
    const answers = await Promise.all([ask(client, 'a'), ask(client, 'b'), ask(client, 'c')]);
    for (const a of answers) expect(() => JSON.parse(a.choices[0]!.message.content ?? '')).toThrow();
    const embedding = await client.embeddings.create({ model: 'e', input: 'x', encoding_format: 'float' });
    expect(embedding.data).toHaveLength(1);
    s.faults.clear();
    expect(content(await ask(client, 'd'))).toHaveProperty('verdicts');
  });

  it('applies rates reproducibly from the seed', async () => {
    const run = async () => {
      const { client, server: s } = await start({ seed: 7 });
      s.faults.rate('http_500', 0.5, { route: 'all' });
      const out: number[] = [];
      for (let i = 0; i < 12; i++)
        out.push(
          await ask(client, 'x').then(
            () => 200,
            (e: { status: number }) => e.status,
          ),
        );
      await s.close();
      server = undefined;
      return out;
    };
    const a = await run();
    expect(a).toEqual(await run());
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it('truncates with finish_reason length', async () => {
    const { client, server: s } = await start();
    s.faults.next('truncated', 1);
    const c = await ask(client, 'statements: ["a b", "c d"]');
    expect(c.choices[0]!.finish_reason).toBe('length');
    expect(() => JSON.parse(c.choices[0]!.message.content ?? '')).toThrow();
  });

  it('hangs until the client gives up, holding no serving slot', async () => {
    const { client, server: s } = await start({ parallelism: 1 });
    s.faults.next('hang', 1);
    const controller = new AbortController();
    const hung = client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'y' }] }, { signal: controller.signal })
      .catch((e: unknown) => e);
    const normal = await ask(client, 'z');
    expect(normal.choices).toHaveLength(1);
    controller.abort();
    expect(await hung).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(s.requests[0]!.fault).toBe('hang');
    expect(s.requests[0]!.status).toBeUndefined();
  });

  it('ends hung requests when the server closes', async () => {
    const { client, server: s } = await start();
    s.faults.always('hang');
    const hung = ask(client, 'x').catch((e: unknown) => e);
    while (s.stats().open < 1) await new Promise((r) => setTimeout(r, 2));
    await s.close();
    server = undefined;
    expect(await hung).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('serves at most `parallelism` requests at once and queues the rest without bound', async () => {
    const { client, server: s } = await start({ parallelism: 2, serviceTimeMs: 15 });
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => ask(client, `q${i}`)));
    expect(all).toHaveLength(12);
    const stats = s.stats();
    expect(stats.maxInService).toBeLessThanOrEqual(2);
    expect(stats.maxQueued).toBeGreaterThan(0);
    expect(s.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('rejects knobs that make no sense on a route', async () => {
    const { server: s } = await start();
    expect(() => s.faults.next('truncated', 1, { route: 'embeddings' })).toThrow(/does not apply/);
    expect(() => s.faults.rate('http_500', 2)).toThrow(RangeError);
  });
});
