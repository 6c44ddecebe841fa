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

const rawPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const schema = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
};

describe('vLLM behaviour of the stand-in', () => {
  it('rejects the removed guided_json field by default, naming it', async () => {
    const { client } = await start();
    const error = await client.chat.completions
      .create({ model: 'm', temperature: 0, messages: [{ role: 'user', content: 'hi' }], guided_json: schema } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const e = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.error).toMatchObject({ type: 'BadRequestError', param: 'guided_json', code: 400 });
    expect((e.error as { message: string }).message).toContain('removed in vLLM 0.12');
  });

  it('drops guided_json silently and answers unconstrained under the vLLM-exact ignore policy', async () => {
    const { client, server: s } = await start({ legacyGuidedFields: 'ignore' });
    const response = await client.chat.completions
      .create({
        model: 'm',
        temperature: 0,
        messages: [{ role: 'user', content: 'answer: Redis is fast.' }],
        guided_json: schema,
      } as never)
      .withResponse();
    expect(response.response.headers.get('x-ragwatch-standin-ignored-fields')).toBe('guided_json');
    const content = response.data.choices[0]!.message.content ?? '';
    expect(() => JSON.parse(content)).toThrow();
    expect(s.requests[0]!.ignoredFields).toEqual(['guided_json']);
  });

  it('allows n > 1 when sampling and returns n choices', async () => {
    const { client } = await start();
    const completion = await client.chat.completions.create({
      model: 'm',
      temperature: 0.7,
      n: 3,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('says it is a stand-in in /v1/models and in every response header', async () => {
    const { client, server: s } = await start({ model: 'judge-x', embeddingModel: 'emb-x' });
    const models = await client.models.list().withResponse();
    expect(models.data.data.map((m) => m.id)).toEqual(['judge-x', 'emb-x']);
    expect(models.data.data.every((m) => m.owned_by === 'ragwatch-standin')).toBe(true);
    expect(JSON.stringify(models.data.data)).toContain('not a quality judge');
    expect(models.response.headers.get('x-ragwatch-standin')).toContain('not a quality judge');
    const notFound = await fetch(`${s.url}/nothing`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-ragwatch-standin')).toContain('stand-in');
  });

  it('answers forced tool calls with arguments valid against the tool parameters, as vLLM', async () => {
    const { client } = await start();
    const completion = await client.chat.completions.create({
      model: 'm',
      temperature: 0,
      messages: [
        {
          role: 'user',
          content:
            'context: Paris is the capital of France.\nstatements: ["Paris is the capital of France.", "Paris has ten million bridges."]',
        },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'judge',
            parameters: {
              type: 'object',
              properties: {
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { statement: { type: 'string' }, verdict: { type: 'integer' } },
                    required: ['statement', 'verdict'],
                  },
                },
              },
              required: ['items'],
            },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'judge' } },
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    const args = JSON.parse((call as { function: { arguments: string } }).function.arguments) as {
      items: Array<{ verdict: number }>;
    };
    expect(args.items.map((i) => i.verdict)).toEqual([1, 0]);
  });

  it('rejects a tool_choice naming a tool that was not passed, and auto without the server flag', async () => {
    const { client } = await start();
    const tools = [{ type: 'function' as const, function: { name: 'a', parameters: schema } }];
    const named = await client.chat.completions
      .create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        tools,
        tool_choice: { type: 'function', function: { name: 'b' } },
      })
      .catch((e: unknown) => e);
    expect((named as { error: { message: string } }).error.message).toBe("Tool 'b' has not been passed in `tools`.");
    const auto = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools, tool_choice: 'auto' })
      .catch((e: unknown) => e);
    expect((auto as { status: number }).status).toBe(400);
  });

  it('truncates at max_tokens with finish_reason length and counts exactly max_tokens', async () => {
    const { client } = await start();
    const completion = await client.chat.completions.create({
      model: 'm',
      temperature: 0,
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'answer: Redis is an in-memory store. It is fast. It is popular. It has modules.' },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'claims',
          schema: {
            type: 'object',
            properties: { claims: { type: 'array', items: { type: 'string' } } },
            required: ['claims'],
          },
        },
      },
    });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(5);
    expect(() => JSON.parse(completion.choices[0]!.message.content ?? '')).toThrow();
  });

  it('puts thinking in reasoning_content unless enable_thinking is false', async () => {
    const { client } = await start({ reasoning: 'field' });
    const body = {
      model: 'm',
      temperature: 0,
      messages: [{ role: 'user' as const, content: 'hi' }],
      response_format: { type: 'json_schema' as const, json_schema: { name: 'x', schema } },
    };
    const thinking = await client.chat.completions.create(body);
    const message = thinking.choices[0]!.message as { content: string; reasoning_content?: string };
    expect(message.reasoning_content).toContain('not a quality judge');
    expect(JSON.parse(message.content)).toEqual({ ok: false });
    const plain = await client.chat.completions.create({
      ...body,
      chat_template_kwargs: { enable_thinking: false },
    } as never);
    expect((plain.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBeUndefined();
    expect(plain.usage!.completion_tokens).toBeLessThan(thinking.usage!.completion_tokens);
  });

  it('reports prompt tokens already seen as a prefix as cached', async () => {
    const { client } = await start();
    const system = 'You are a careful judge. '.repeat(20);
    const ask = (q: string) =>
      client.chat.completions.create({
        model: 'm',
        temperature: 0,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: q },
        ],
      });
    const first = await ask('answer: one');
    const second = await ask('answer: two');
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThan(100);
    expect(cached % 16).toBe(0);
    expect(cached).toBeLessThan(second.usage!.prompt_tokens);
  });

  it('answers 400 to a schema that does not compile and to invalid sampling parameters', async () => {
    await start();
    const bad = await rawPost('/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'nonsense' } } },
    });
    expect(bad.status).toBe(400);
    const hot = await rawPost('/chat/completions', {
      model: 'm',
      temperature: 3,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(hot.status).toBe(400);
    expect(((await hot.json()) as { error: { message: string } }).error.message).toBe(
      'temperature must be in [0, 2], got 3.',
    );
    const empty = await rawPost('/chat/completions', { model: 'm', messages: [] });
    expect(empty.status).toBe(400);
    const notJson = await fetch(`${server!.url}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(notJson.status).toBe(400);
  });

  it('requires the API key when one is configured and never records it', async () => {
    const { server: s } = await start({ apiKey: 'sekret' });
    const anonymous = await fetch(`${s.url}/models`);
    expect(anonymous.status).toBe(401);
    const allowed = await fetch(`${s.url}/models`, { headers: { authorization: 'Bearer sekret' } });
    expect(allowed.status).toBe(200);
    expect(JSON.stringify(s.requests)).not.toContain('sekret');
  });

  it("answers 404 for another model only in strict mode, with vLLM's message", async () => {
    await start({ strictModel: true, model: 'served' });
    const res = await rawPost('/chat/completions', { model: 'other', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: 'The model `other` does not exist.', type: 'NotFoundError', param: 'model', code: 404 },
    });
  });

  it('streams a completion as server-sent events, usage last when asked', async () => {
    const { client } = await start();
    const stream = await client.chat.completions.create({
      model: 'm',
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'context: Redis is fast.\nanswer: Redis is fast.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(JSON.parse(text)).toEqual({ ok: false });
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });
});
