import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai';
import type { Tracer } from '@opentelemetry/api';
import { z } from 'zod';
import { chunks } from './knowledge.js';
import { startLangfuseOtel } from './langfuse-otel.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * An app on the Vercel AI SDK (`ai` 6) with `experimental_telemetry` on, its spans exported by
 * `@langfuse/otel`'s `LangfuseSpanProcessor` as Langfuse's guide shows: `ai.generateText` with
 * `ai.generateText.doGenerate` generations and `ai.toolCall` spans (the retrieval tool's result is the
 * documents), `functionId` and metadata naming the trace.
 */

interface AiEnv extends ScenarioEnv {
  model: LanguageModel;
  tracer: Tracer;
}

const telemetry = (env: AiEnv, functionId: string) => ({
  isEnabled: true,
  functionId,
  tracer: env.tracer,
  metadata: { app: 'lumora-support' },
});

function searchTool(docsFor: (query: string) => Array<{ id: string; text: string; source: string }>) {
  return tool({
    description: 'Search the Lumora knowledge base',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => docsFor(query).map((d) => ({ id: d.id, content: d.text, source: d.source })),
  });
}

export const vercelAi: Integration<AiEnv> = {
  name: 'vercel-ai-sdk',
  packages: ['ai', '@ai-sdk/openai', '@langfuse/otel'],
  transport: 'OTLP/JSON to /api/public/otel (LangfuseSpanProcessor)',
  async start(target, llm) {
    const tracing = startLangfuseOtel(target);
    const openai = createOpenAI({ apiKey: 'sk-local', baseURL: llm.url });
    // The AI SDK records with the global tracer unless handed one: the app's provider, under the SDK's own scope name.
    const tracer = tracing.provider.getTracer('ai');
    return {
      env: { llm, model: openai.chat('gpt-4o-mini'), tracer },
      flush: tracing.flush,
      shutdown: tracing.shutdown,
    };
  },
  scenarios: [
    {
      name: 'retrieval-tool',
      description: 'generateText with a searchKnowledgeBase tool: one tool call, then the answer',
      async run(env): Promise<Expectation> {
        const question = 'Does the Lumora Plug fit UK sockets?';
        const docs = chunks('en-plug-1', 'en-tech-app-1').map((c) => ({ id: c.id, text: c.text, source: c.source }));
        env.llm.enqueue(
          reply(null, [{ name: 'searchKnowledgeBase', arguments: { query: 'Lumora Plug UK socket' } }]),
          reply('No. The Lumora Plug has a Schuko (type F) connector and is not sold for UK or Irish sockets.'),
        );
        const result = await generateText({
          model: env.model,
          system: 'You are Lumora support. Use the knowledge base tool before answering.',
          prompt: question,
          tools: { searchKnowledgeBase: searchTool(() => docs) },
          stopWhen: stepCountIs(3),
          experimental_telemetry: telemetry(env, 'support-answer'),
        });
        return {
          kind: 'rag',
          question,
          answer: result.text,
          contexts: docs.map((d) => d.text),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'context-in-system',
      description: 'generateText with the retrieved documents pasted into the system prompt, no tools',
      async run(env): Promise<Expectation> {
        const question = 'How long do I have to return a product?';
        const docs = chunks('en-returns-1', 'en-returns-2').map((c) => c.text);
        env.llm.enqueue(reply('You can return any product within 30 days of delivery.'));
        const result = await generateText({
          model: env.model,
          system: `Answer using only this context.\n\n<context>\n${docs.join('\n\n')}\n</context>`,
          prompt: question,
          experimental_telemetry: telemetry(env, 'support-answer'),
        });
        return { kind: 'rag', question, answer: result.text, contexts: docs, contextsFrom: 'prompt' };
      },
    },
    {
      name: 'weather-tool',
      description: 'generateText calling a getWeather tool (not retrieval), then answering: not RAG',
      async run(env): Promise<Expectation> {
        env.llm.enqueue(
          reply(null, [{ name: 'getWeather', arguments: { city: 'Valencia' } }]),
          reply('It is sunny and 24 °C in Valencia.'),
        );
        await generateText({
          model: env.model,
          prompt: 'What is the weather in Valencia?',
          tools: {
            getWeather: tool({
              description: 'Current weather for a city',
              inputSchema: z.object({ city: z.string() }),
              execute: async ({ city }) => ({ city, condition: 'sunny', temperatureC: 24 }),
            }),
          },
          stopWhen: stepCountIs(3),
          experimental_telemetry: telemetry(env, 'weather'),
        });
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
    {
      name: 'plain-chat',
      description: 'generateText without tools or context: not RAG',
      async run(env): Promise<Expectation> {
        env.llm.enqueue(reply('Hello! How can I help you with your Lumora devices?'));
        await generateText({
          model: env.model,
          prompt: 'Hello!',
          experimental_telemetry: telemetry(env, 'small-talk'),
        });
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
