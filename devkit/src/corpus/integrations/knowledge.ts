import { KNOWLEDGE } from '../knowledge.js';
import type { KnowledgeChunk } from '../types.js';

/** Chunks of the demo knowledge base by id, for the integrations' small RAG apps. */
export function chunks(...ids: string[]): KnowledgeChunk[] {
  return ids.map((id) => {
    const chunk = KNOWLEDGE.find((c) => c.id === id);
    if (!chunk) throw new Error(`unknown knowledge chunk ${id}`);
    return chunk;
  });
}

/** The documents the apps index: a slice of the English and Spanish knowledge base. */
export function corpus(lang: 'en' | 'es', size = 12): KnowledgeChunk[] {
  return KNOWLEDGE.filter((c) => c.lang === lang).slice(0, size);
}
