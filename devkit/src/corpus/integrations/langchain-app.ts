import { Document } from '@langchain/core/documents';
import { BaseRetriever } from '@langchain/core/retrievers';
import { ChatOpenAI } from '@langchain/openai';
import { searchKnowledge } from '../knowledge.js';
import type { DemoLanguage } from '../types.js';

/**
 * Pieces of a LangChain JS RAG app shared by the LangChain integrations: a retriever over the demo
 * knowledge base (BM25, as a keyword store would return it) and the chat model on the app's local LLM.
 */

export class KnowledgeBaseRetriever extends BaseRetriever {
  override lc_namespace = ['lumora', 'retrievers'];

  constructor(
    private readonly lang: DemoLanguage,
    private readonly k = 2,
  ) {
    super();
  }

  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    return searchKnowledge(query, { lang: this.lang, k: this.k }).map(
      ({ chunk, score }) =>
        new Document({
          pageContent: chunk.text,
          metadata: { source: chunk.source, title: chunk.title, score: Number(score.toFixed(3)) },
          id: chunk.id,
        }),
    );
  }
}

export function chatModel(llmUrl: string): ChatOpenAI {
  return new ChatOpenAI({
    model: 'gpt-4o-mini',
    temperature: 0,
    apiKey: 'sk-local',
    configuration: { baseURL: llmUrl },
    maxRetries: 0,
  });
}

/** How the retrieval chains and tools hand documents to the model: texts joined by blank lines. */
export function formatDocuments(docs: Document[]): string {
  return docs.map((d) => d.pageContent).join('\n\n');
}
