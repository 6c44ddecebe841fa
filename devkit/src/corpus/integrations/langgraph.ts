import { CallbackHandler } from '@langfuse/langchain';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import type { Document } from '@langchain/core/documents';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { chatModel, formatDocuments, KnowledgeBaseRetriever } from './langchain-app.js';
import { startLangfuseOtel } from './langfuse-otel.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * LangGraph.js agents traced by `@langfuse/langchain`'s `CallbackHandler` (Langfuse's OTel pipeline
 * behind it), as Langfuse's LangGraph guide sets it up: the handler is passed in `callbacks` of the
 * graph's `invoke`. Runs become spans named after the graph nodes, chat models generations, the
 * retriever a retriever observation nested in the tool that called it.
 */

interface GraphEnv extends ScenarioEnv {
  handler: () => CallbackHandler;
}

function searchTool(retriever: KnowledgeBaseRetriever, found: Document[]) {
  return tool(
    async ({ query }, config) => {
      const docs = await retriever.invoke(query, config);
      found.push(...docs);
      return formatDocuments(docs);
    },
    {
      name: 'search_knowledge_base',
      description: 'Search the Lumora help centre',
      schema: z.object({ query: z.string() }),
    },
  );
}

const unique = (docs: Document[]) => [...new Set(docs.map((d) => d.pageContent))];

export const langgraph: Integration<GraphEnv> = {
  name: 'langgraph-langfuse',
  packages: ['@langchain/langgraph', '@langchain/core', '@langchain/openai', '@langfuse/langchain', '@langfuse/otel'],
  transport: 'OTLP/JSON to /api/public/otel (LangfuseSpanProcessor)',
  async start(target, llm) {
    const tracing = startLangfuseOtel(target);
    return {
      env: { llm, handler: () => new CallbackHandler({ sessionId: 'session-42', tags: ['langgraph'] }) },
      // LangChain runs callbacks in the background: wait for them before flushing.
      async flush() {
        await awaitAllCallbacks();
        await tracing.flush();
      },
      shutdown: tracing.shutdown,
    };
  },
  scenarios: [
    {
      name: 'react-agent-two-searches',
      description: 'createReactAgent with a knowledge-base tool called twice (two retriever runs), then the answer',
      async run(env): Promise<Expectation> {
        const question = 'How much is Lumora Pro per year, and can I cancel it later?';
        const found: Document[] = [];
        const agent = createReactAgent({
          llm: chatModel(env.llm.url),
          tools: [searchTool(new KnowledgeBaseRetriever('en'), found)],
        });
        env.llm.enqueue(
          reply(null, [{ name: 'search_knowledge_base', arguments: { query: 'Lumora Pro price per year' } }]),
          reply(null, [{ name: 'search_knowledge_base', arguments: { query: 'cancel subscription plan' } }]),
          reply(
            'Lumora Pro costs €99 a year. You can cancel any time under Account > Subscription > Cancel plan and keep the benefits until the paid period ends.',
          ),
        );
        const state = await agent.invoke(
          { messages: [new HumanMessage(question)] },
          { callbacks: [env.handler()], runName: 'support-agent' },
        );
        const last = state.messages[state.messages.length - 1];
        return {
          kind: 'rag',
          question,
          answer: String(last?.content ?? ''),
          contexts: unique(found),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'rag-state-graph',
      description: 'a StateGraph with retrieve and generate nodes; documents travel in the graph state',
      async run(env): Promise<Expectation> {
        const question = '¿Cuánto cuesta el envío a Baleares?';
        const retriever = new KnowledgeBaseRetriever('es');
        const model = chatModel(env.llm.url);
        const State = Annotation.Root({
          question: Annotation<string>(),
          context: Annotation<Document[]>(),
          answer: Annotation<string>(),
        });
        const graph = new StateGraph(State)
          .addNode('retrieve', async (s: typeof State.State, config) => ({
            context: await retriever.invoke(s.question, config),
          }))
          .addNode('generate', async (s: typeof State.State, config) => {
            const messages = [
              new SystemMessage(`Responde con el contexto.\n\nContexto:\n${formatDocuments(s.context)}`),
              new HumanMessage(s.question),
            ];
            const response = await model.invoke(messages, config);
            return { answer: String(response.content) };
          })
          .addEdge(START, 'retrieve')
          .addEdge('retrieve', 'generate')
          .addEdge('generate', END)
          .compile();
        env.llm.enqueue(reply('El envío a Baleares cuesta 5,95 € y tarda de 3 a 5 días laborables.'));
        const result = await graph.invoke({ question }, { callbacks: [env.handler()], runName: 'rag-graph' });
        return {
          kind: 'rag',
          question,
          answer: result.answer,
          contexts: unique(result.context),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'order-status-agent',
      description: 'createReactAgent calling a get_order_status tool that is not retrieval: not RAG',
      async run(env): Promise<Expectation> {
        const orderTool = tool(async ({ orderId }) => JSON.stringify({ orderId, status: 'shipped', carrier: 'SEUR' }), {
          name: 'get_order_status',
          description: 'Status of an order',
          schema: z.object({ orderId: z.string() }),
        });
        const agent = createReactAgent({ llm: chatModel(env.llm.url), tools: [orderTool] });
        env.llm.enqueue(
          reply(null, [{ name: 'get_order_status', arguments: { orderId: 'LUM-2211' } }]),
          reply('Your order LUM-2211 has shipped with SEUR.'),
        );
        await agent.invoke(
          { messages: [new HumanMessage('Where is my order LUM-2211?')] },
          { callbacks: [env.handler()], runName: 'orders-agent' },
        );
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
    {
      name: 'plain-chat',
      description: 'a chat model call with no retrieval: not RAG',
      async run(env): Promise<Expectation> {
        env.llm.enqueue(reply('Hi! How can I help you today?'));
        await chatModel(env.llm.url).invoke([new HumanMessage('Hello there')], { callbacks: [env.handler()] });
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
