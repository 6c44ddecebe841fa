import OpenAI from 'openai';
import * as traceloop from '@traceloop/node-server-sdk';
import { searchKnowledge } from '../knowledge.js';
import { chunks } from './knowledge.js';
import { startTraceloop } from './traceloop.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * An app calling the OpenAI SDK directly, traced by OpenLLMetry (`@traceloop/node-server-sdk` with its
 * OpenAI instrumentation): each completion is a `gen_ai.*` span, and the app marks its own steps with
 * OpenLLMetry's `withWorkflow` / `withTask` (their arguments and return values become
 * `traceloop.entity.input/output`). Documents reach the trace as a task's return value, or only in the prompt.
 */

interface OpenAIEnv extends ScenarioEnv {
  openai: OpenAI;
}

const MODEL = 'gpt-4o-mini';

export const openllmetryOpenai: Integration<OpenAIEnv> = {
  name: 'openllmetry-openai',
  packages: ['@traceloop/node-server-sdk', 'openai'],
  transport: 'OTLP/protobuf to /api/public/otel (traceloop.initialize)',
  async start(target, llm) {
    const tracing = startTraceloop(target, 'support-api', { openAI: OpenAI });
    const openai = new OpenAI({ apiKey: 'sk-local', baseURL: llm.url, maxRetries: 0 });
    return { env: { llm, openai }, flush: tracing.flush, shutdown: tracing.shutdown };
  },
  scenarios: [
    {
      name: 'workflow-with-retrieval-task',
      description:
        'withWorkflow around a withTask retrieval (returns {id, text, score}) and a completion with the documents in the system prompt',
      async run({ llm, openai }): Promise<Expectation> {
        const question = 'What does a flashing blue light on the Hub mean?';
        let contexts: string[] = [];
        llm.enqueue(reply('A flashing blue light means the Hub is in pairing mode.'));
        const answer = await traceloop.withWorkflow({ name: 'answer_question' }, async () => {
          const docs: Array<{ id: string; text: string; score: number }> = await traceloop.withTask(
            { name: 'retrieve_documents' },
            async () =>
              searchKnowledge(question, { lang: 'en', k: 2 }).map(({ chunk, score }) => ({
                id: chunk.id,
                text: chunk.text,
                score: Number(score.toFixed(3)),
              })),
          );
          contexts = docs.map((d) => d.text);
          const completion = await openai.chat.completions.create({
            model: MODEL,
            messages: [
              { role: 'system', content: `Answer with these documents:\n\n${docs.map((d) => d.text).join('\n\n')}` },
              { role: 'user', content: question },
            ],
          });
          return completion.choices[0]?.message.content ?? '';
        });
        return { kind: 'rag', question, answer, contexts, contextsFrom: 'retrieval' };
      },
    },
    {
      name: 'numbered-sources-in-system',
      description: 'a bare completion whose Spanish system prompt lists the sources as [1], [2]',
      async run({ llm, openai }): Promise<Expectation> {
        const question = '¿Puedo devolver un producto que compré en Amazon?';
        const docs = chunks('es-devoluciones-3', 'es-devoluciones-1').map((c) => c.text);
        llm.enqueue(reply('No: los productos comprados en otros distribuidores se devuelven donde se compraron [1].'));
        const completion = await openai.chat.completions.create({
          model: MODEL,
          messages: [
            {
              role: 'system',
              content: `Eres el asistente de Lumora. Usa solo estas fuentes y cítalas:\n\n${docs.map((d, i) => `[${i + 1}] ${d}`).join('\n\n')}`,
            },
            { role: 'user', content: question },
          ],
        });
        return {
          kind: 'rag',
          question,
          answer: completion.choices[0]?.message.content ?? '',
          contexts: docs,
          contextsFrom: 'prompt',
        };
      },
    },
    {
      name: 'plain-completion',
      description: 'a completion without documents: not RAG',
      async run({ llm, openai }): Promise<Expectation> {
        llm.enqueue(reply('Sure! Here is a haiku about smart homes: lights dim on their own…'));
        await openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'Write a haiku about smart homes.' }],
        });
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
