import * as traceloop from '@traceloop/node-server-sdk';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import type { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { chatModel, formatDocuments, KnowledgeBaseRetriever } from './langchain-app.js';
import { startTraceloop } from './traceloop.js';
import { reply, type Expectation, type Integration, type ScenarioEnv } from './types.js';

/**
 * A LangChain JS app traced by OpenLLMetry (`@traceloop/node-server-sdk`, whose LangChain instrumentation
 * patches the callback manager): runnables become workflow/task spans with `traceloop.entity.input/output`,
 * chat models `gen_ai.*` spans. Retriever runs get no span of their own; the documents show up as the
 * input of the step that formats them and, joined, in the prompt. The callback spans take the active
 * context as parent, so the app wraps each request in `withWorkflow`, as OpenLLMetry's guides do: without
 * it every runnable lands in a trace of its own.
 */

/**
 * The instrumentation patches LangChain's ES module callback manager from a dynamic `import()`, a few ticks
 * after `initialize`; runs started before that are not traced (a real app's first request comes later).
 */
async function langchainPatched(): Promise<void> {
  const manager = (await import('@langchain/core/callbacks/manager')).CallbackManager as unknown as {
    _traceloopPatched?: boolean;
  };
  for (let tick = 0; tick < 1000 && !manager._traceloopPatched; tick++)
    await new Promise((resolve) => setImmediate(resolve));
  if (!manager._traceloopPatched) throw new Error('OpenLLMetry did not patch the LangChain callback manager');
}

const PROMPT = ChatPromptTemplate.fromMessages([
  ['system', 'You are Lumora support. Answer using only the following context:\n\n{context}'],
  ['human', '{question}'],
]);

export const openllmetryLangchain: Integration = {
  name: 'openllmetry-langchain',
  packages: ['@traceloop/node-server-sdk', '@langchain/core', '@langchain/openai'],
  transport: 'OTLP/protobuf to /api/public/otel (traceloop.initialize)',
  async start(target, llm) {
    const tracing = startTraceloop(target, 'support-rag', { langchain: true });
    await langchainPatched();
    // LangChain runs callbacks in the background: wait for them before flushing, as serverless apps do.
    const flush = async () => {
      await awaitAllCallbacks();
      await tracing.flush();
    };
    return { env: { llm }, flush, shutdown: flush };
  },
  scenarios: [
    {
      name: 'lcel-retrieval-chain',
      description:
        'RunnableSequence: {context: retriever | format, question: passthrough} | prompt | ChatOpenAI | parser',
      async run({ llm }): Promise<Expectation> {
        const question = 'How long does delivery to Ireland take?';
        const retrieved: Document[] = [];
        const retriever = new KnowledgeBaseRetriever('en');
        const chain = RunnableSequence.from([
          {
            context: retriever.pipe(
              RunnableLambda.from((docs: Document[]) => {
                retrieved.push(...docs);
                return formatDocuments(docs);
              }).withConfig({ runName: 'formatDocuments' }),
            ),
            question: new RunnablePassthrough(),
          },
          PROMPT,
          chatModel(llm.url),
          new StringOutputParser(),
        ]).withConfig({ runName: 'support-rag-chain' });
        llm.enqueue(reply('Delivery to Ireland takes 3 to 5 business days.'));
        const answer = await traceloop.withWorkflow({ name: 'support_rag' }, () => chain.invoke(question));
        return {
          kind: 'rag',
          question,
          answer,
          contexts: retrieved.map((d) => d.pageContent),
          contextsFrom: 'retrieval',
        };
      },
    },
    {
      name: 'chat-chain',
      description: 'prompt | ChatOpenAI | parser without retrieval: not RAG',
      async run({ llm }): Promise<Expectation> {
        const chain = ChatPromptTemplate.fromMessages([
          ['system', 'You are a friendly assistant.'],
          ['human', '{question}'],
        ])
          .pipe(chatModel(llm.url))
          .pipe(new StringOutputParser());
        llm.enqueue(reply('Good morning! How can I help?'));
        await traceloop.withWorkflow({ name: 'small_talk' }, () => chain.invoke({ question: 'Good morning!' }));
        return { kind: 'skip', reason: 'not_rag' };
      },
    },
  ],
};
