import OpenAI from 'openai';
import * as agents from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import { isDefaultExportSpan } from '@langfuse/otel';
import { z } from 'zod';
import { chunks } from './knowledge.js';
import { startLangfuseOtel } from './langfuse-otel.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * An app on the OpenAI Agents SDK (`@openai/agents`), its native traces bridged to OpenTelemetry by
 * OpenInference's instrumentation and exported by `@langfuse/otel`, as Langfuse's Agents SDK guide does:
 * agent spans (`openinference.span.kind` AGENT), LLM spans with `llm.input_messages.*`, and function tool
 * spans whose `output.value` is what the tool returned. The model is reached over Chat Completions.
 */

const { Agent, run, tool } = agents;

const searchDocs = (docs: () => Array<{ id: string; text: string }>) =>
  tool({
    name: 'search_docs',
    description: 'Search the Lumora help centre and return matching passages',
    parameters: z.object({ query: z.string() }),
    execute: async () => JSON.stringify(docs().map((d) => ({ id: d.id, text: d.text }))),
  });

export const openaiAgents: Integration = {
  name: 'openai-agents',
  packages: ['@openai/agents', '@arizeai/openinference-instrumentation-openai-agents', '@langfuse/otel'],
  transport: 'OTLP/JSON to /api/public/otel (LangfuseSpanProcessor)',
  async start(target, llm) {
    // LangfuseSpanProcessor exports only spans it knows for LLM spans by default; OpenInference's JS scope
    // (`@arizeai/openinference-…`) is not among them, so the app lets its spans through, as Langfuse's
    // span-filtering guide shows.
    const tracing = startLangfuseOtel(target, {
      shouldExportSpan: ({ otelSpan }) =>
        isDefaultExportSpan(otelSpan) || otelSpan.instrumentationScope.name.startsWith('@arizeai/openinference'),
    });
    const instrumentation = new OpenAIAgentsInstrumentation({ tracerProvider: tracing.provider });
    instrumentation.manuallyInstrument(agents);
    // The SDK turns its own tracing off when NODE_ENV is `test`; an app in production has it on.
    agents.setTracingDisabled(false);
    agents.setDefaultOpenAIClient(new OpenAI({ apiKey: 'sk-local', baseURL: llm.url, maxRetries: 0 }));
    agents.setOpenAIAPI('chat_completions');
    return {
      env: { llm },
      async flush() {
        await agents.getGlobalTraceProvider().forceFlush();
        await tracing.flush();
      },
      async shutdown() {
        instrumentation.disable();
        await tracing.shutdown();
      },
    };
  },
  scenarios: [
    {
      name: 'search-tool',
      description: 'an agent calls its search_docs function tool once, then answers from the passages',
      async run({ llm }): Promise<Expectation> {
        const question = 'Where are my camera recordings stored?';
        const docs = chunks('en-privacy-1', 'en-plans-1').map((c) => ({ id: c.id, text: c.text }));
        const agent = new Agent({
          name: 'Lumora support',
          instructions: 'Answer with the help centre passages.',
          model: 'gpt-4o-mini',
          tools: [searchDocs(() => docs)],
        });
        llm.enqueue(
          reply(null, [{ name: 'search_docs', arguments: { query: 'recording storage location' } }]),
          reply('Recordings are encrypted and stored on servers in the European Union, in Frankfurt.'),
        );
        const result = await run(agent, question);
        return {
          kind: 'rag',
          question,
          answer: String(result.finalOutput),
          contexts: docs.map((d) => d.text),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'order-tool',
      description: 'an agent calls a get_order_status tool (not retrieval) and answers: not RAG',
      async run({ llm }): Promise<Expectation> {
        const orderTool = tool({
          name: 'get_order_status',
          description: 'Status of an order',
          parameters: z.object({ order_id: z.string() }),
          execute: async ({ order_id }) => JSON.stringify({ order_id, status: 'in transit', eta_days: 2 }),
        });
        const agent = new Agent({
          name: 'Orders',
          instructions: 'Help with orders.',
          model: 'gpt-4o-mini',
          tools: [orderTool],
        });
        llm.enqueue(
          reply(null, [{ name: 'get_order_status', arguments: { order_id: 'LUM-7' } }]),
          reply('Your order LUM-7 is in transit and should arrive in 2 days.'),
        );
        await run(agent, 'Where is order LUM-7?');
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
    {
      name: 'no-tools',
      description: 'an agent without tools answering small talk: not RAG',
      async run({ llm }): Promise<Expectation> {
        const agent = new Agent({ name: 'Greeter', instructions: 'Be friendly.', model: 'gpt-4o-mini' });
        llm.enqueue(reply('Hello! Nice to meet you.'));
        await run(agent, 'Hi!');
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
