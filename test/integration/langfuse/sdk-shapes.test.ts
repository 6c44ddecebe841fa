import OpenAI from 'openai';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { observeOpenAI } from '@langfuse/openai';
import { startActiveObservation } from '@langfuse/tracing';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { extractRagSample } from '../../../src/extract/extract.js';
import { getTrace, listTraces } from '../../../src/langfuse/resources/trace-reads.js';
import { startStand, tracingTo, type Stand } from './harness.js';

/**
 * Traces produced by the real SDKs (@langfuse/tracing spans, @langfuse/openai generations against an
 * OpenAI-compatible server) go through the stand-in and come back through ragwatch's reads and extraction.
 */

let judge: JudgeServer;
let stand: Stand | undefined;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1' });
});
afterAll(async () => judge?.close());
afterEach(async () => {
  await stand?.close();
  stand = undefined;
});

const chunks = [
  'The Starter plan costs 9 EUR per month.',
  'The Business plan costs 29 EUR per month and includes priority support.',
];

async function onlyTraceId(s: Stand, generation: 'v3' | 'v4'): Promise<string> {
  const ids: string[] = [];
  for await (const t of listTraces(s.http, {
    generation,
    from: new Date(Date.now() - 3600_000),
    to: new Date(Date.now() + 60_000),
  }))
    ids.push(t.id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

for (const personality of ['v3', 'v4'] as const) {
  describe(`real SDK traces → RAG samples (${personality})`, () => {
    it('a pipeline span with an OTel retriever and an @langfuse/openai generation, trace IO never set', async () => {
      stand = await startStand({ personality });
      const provider = tracingTo(stand.server);
      const openai = observeOpenAI(new OpenAI({ baseURL: judge.url, apiKey: 'none', maxRetries: 0 }), {
        generationName: 'OpenAI-completion',
      });
      const question = 'How much is the Business plan?';
      let answer = '';
      await startActiveObservation('handle-request', async (root) => {
        const inner = root.startObservation('answer-question', { input: { query: question } });
        const retriever = inner.startObservation('kb-search', { input: { query: question } }, { asType: 'retriever' });
        retriever.update({ output: chunks.map((text, i) => ({ id: `kb-${i}`, text, score: 0.9 - i / 10 })) }).end();
        const res = await openai.chat.completions.create({
          model: judge.model,
          temperature: 0,
          messages: [
            { role: 'system', content: 'Answer only from the context.' },
            { role: 'user', content: `Context:\n${chunks.join('\n')}\n\nQuestion: ${question}` },
          ],
        });
        answer = res.choices[0]!.message.content ?? '';
        inner.update({ output: { answer } }).end();
      });
      await provider.forceFlush();
      await provider.shutdown();
      expect(answer.length).toBeGreaterThan(0);

      const trace = await getTrace(stand.http, await onlyTraceId(stand, personality), personality);
      const result = extractRagSample(trace!);
      expect(result).toMatchObject({ ok: true, sample: { question, answer, contexts: chunks } });
      expect(stand.violations).toEqual([]);
    });

    it('a lone @langfuse/openai call with the context pasted into the system prompt, streamed', async () => {
      stand = await startStand({ personality });
      const provider = tracingTo(stand.server);
      const openai = observeOpenAI(new OpenAI({ baseURL: judge.url, apiKey: 'none', maxRetries: 0 }), {
        traceName: 'support-bot',
      });
      const question = 'Does the Starter plan include priority support?';
      const stream = await openai.chat.completions.create({
        model: judge.model,
        temperature: 0,
        stream: true,
        messages: [
          {
            role: 'system',
            content: `You are a support bot. Use only these documents:\n<documents>\n${chunks.map((c) => `<document>${c}</document>`).join('\n')}\n</documents>`,
          },
          { role: 'user', content: question },
        ],
      });
      let answer = '';
      for await (const chunk of stream) answer += chunk.choices[0]?.delta?.content ?? '';
      await provider.forceFlush();
      await provider.shutdown();

      const trace = await getTrace(stand.http, await onlyTraceId(stand, personality), personality);
      const result = extractRagSample(trace!);
      expect(result).toMatchObject({ ok: true, sample: { question, answer: answer.trim(), contexts: chunks } });
      expect(result.ok && result.shape).toContain('contexts=prompt:');
    });
  });
}
