import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMPLETION_KEY_HEADER,
  SCRIPTED_EMBEDDING_DIM,
  startScriptedLlmServer,
  type ScriptedLlmServer,
} from '@ragwatch/devkit/corpus/emit/scripted-llm.js';

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };

describe('scripted app LLM (the real openai SDK against it)', () => {
  it('answers keyed requests, then queued ones in order, tool calls included; an empty queue is a 400', async () => {
    llm = await startScriptedLlmServer();
    const openai = new OpenAI({ apiKey: 'x', baseURL: llm.url, maxRetries: 0 });
    llm.script('k1', { content: 'keyed', model: 'm', usage });
    llm.enqueue(
      { content: null, model: 'm', usage, toolCalls: [{ name: 'search', arguments: { query: 'q' } }] },
      { content: 'second', model: 'm', usage },
    );
    const keyed = await openai.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { headers: { [COMPLETION_KEY_HEADER]: 'k1' } },
    );
    expect(keyed.choices[0]?.message.content).toBe('keyed');
    const call = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(call.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'search', arguments: '{"query":"q"}' },
    });
    expect((await openai.chat.completions.create({ model: 'm', messages: [] })).choices[0]?.message.content).toBe(
      'second',
    );
    expect(llm.pending()).toBe(0);
    await expect(openai.chat.completions.create({ model: 'm', messages: [] })).rejects.toMatchObject({ status: 400 });
  });

  it('streams text and tool calls in chunks with usage last, and serves lexical embeddings', async () => {
    llm = await startScriptedLlmServer();
    const openai = new OpenAI({ apiKey: 'x', baseURL: llm.url, maxRetries: 0 });
    const text = 'A streamed answer that is longer than one chunk of twenty-four characters.';
    llm.enqueue({ content: text, model: 'm', usage });
    const stream = await openai.chat.completions.create({
      model: 'm',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    let got = '';
    let finalUsage: unknown;
    for await (const chunk of stream) {
      got += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) finalUsage = chunk.usage;
    }
    expect(got).toBe(text);
    expect(finalUsage).toEqual(usage);
    llm.enqueue({ content: null, model: 'm', usage, toolCalls: [{ name: 'lookup', arguments: { id: 7 } }] });
    const runner = openai.chat.completions.stream({ model: 'm', messages: [] });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'lookup', arguments: '{"id":7}' },
    });
    const embeddings = await openai.embeddings.create({
      model: 'e',
      input: ['smart plug energy', 'smart plug power', 'holiday policy'],
    });
    const [a, b, c] = embeddings.data.map((d) => d.embedding);
    expect(a).toHaveLength(SCRIPTED_EMBEDDING_DIM);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });
});
