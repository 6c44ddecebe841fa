import * as llamaindex from 'llamaindex';
import * as llamaindexOpenAI from '@llamaindex/openai';
import { corpus } from './knowledge.js';
import { startTraceloop } from './traceloop.js';
import { reply, type Integration, type ScenarioEnv } from './types.js';

/**
 * A LlamaIndex.TS app traced by OpenLLMetry (`@traceloop/node-server-sdk`), as Langfuse documents it for
 * LlamaIndex.TS: `traceloop.initialize({ baseUrl: <langfuse>/api/public/otel, headers: { Authorization } })`,
 * which exports OTLP/protobuf. The instrumentation wraps the query and chat engines (workflow spans),
 * retrievers and synthesizers (task spans, `traceloop.entity.input/output`) and the LLM (`gen_ai.*`).
 */

interface LlamaEnv extends ScenarioEnv {
  index: llamaindex.VectorStoreIndex;
}

export const openllmetryLlamaindex: Integration<LlamaEnv> = {
  name: 'openllmetry-llamaindex',
  packages: ['@traceloop/node-server-sdk', 'llamaindex', '@llamaindex/openai'],
  transport: 'OTLP/protobuf to /api/public/otel (traceloop.initialize)',
  async start(target, llm) {
    const tracing = startTraceloop(target, 'support-rag', {
      llamaIndex: llamaindex,
      llamaIndexOpenAI: llamaindexOpenAI,
    });
    const options = { apiKey: 'sk-local', baseURL: llm.url } as const;
    llamaindex.Settings.llm = new llamaindexOpenAI.OpenAI({ model: 'gpt-4o-mini', temperature: 0.1, ...options });
    llamaindex.Settings.embedModel = new llamaindexOpenAI.OpenAIEmbedding({
      model: 'text-embedding-3-small',
      ...options,
    });
    const documents = corpus('en').map(
      (c) => new llamaindex.Document({ text: c.text, id_: c.id, metadata: { source: c.source, title: c.title } }),
    );
    const index = await llamaindex.VectorStoreIndex.fromDocuments(documents);
    return { env: { llm, index }, flush: tracing.flush, shutdown: tracing.shutdown };
  },
  scenarios: [
    {
      name: 'query-engine',
      description: 'index.asQueryEngine().query(): retrieve the top 2 nodes, answer from them',
      async run({ llm, index }) {
        const question = 'How much does the Lumora Hub cost, and does it work without internet?';
        const answer =
          'The Lumora Hub costs €149 including VAT. Local automations keep working when the internet is down.';
        llm.enqueue(reply(answer));
        const response = await index.asQueryEngine({ similarityTopK: 2 }).query({ query: question });
        return {
          kind: 'rag',
          question,
          answer: response.toString(),
          contexts: nodeTexts(response.sourceNodes),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'context-chat-engine',
      description: 'ContextChatEngine.chat(): retrieved nodes go into the system prompt, with chat history',
      async run({ llm, index }) {
        const question = 'Which Wi-Fi band does the outdoor camera need?';
        const answer = 'Lumora Cam Outdoor only connects to 2.4 GHz Wi-Fi.';
        llm.enqueue(reply(answer));
        const retriever = index.asRetriever({ similarityTopK: 2 });
        const engine = new llamaindex.ContextChatEngine({ retriever });
        const history = [
          { role: 'user' as const, content: 'I just bought a Lumora Cam Outdoor.' },
          { role: 'assistant' as const, content: 'Great choice! How can I help you set it up?' },
        ];
        const response = await engine.chat({ message: question, chatHistory: history });
        return {
          kind: 'rag',
          question,
          answer: response.message.content as string,
          contexts: nodeTexts(response.sourceNodes),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'plain-llm-chat',
      description: 'Settings.llm.chat() with no retrieval: small talk, not RAG',
      async run({ llm }) {
        llm.enqueue(reply('Hello! I am the Lumora assistant. How can I help you today?'));
        await llamaindex.Settings.llm.chat({
          messages: [
            { role: 'system', content: 'You are a friendly assistant.' },
            { role: 'user', content: 'Hi there!' },
          ],
        });
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};

function nodeTexts(nodes: llamaindex.NodeWithScore[] | undefined): string[] {
  return (nodes ?? []).map((n) => n.node.getContent(llamaindex.MetadataMode.NONE));
}
