import type { EmbeddingsClient } from '../judge/index.js';
import { safeCosine } from './filters.js';

/**
 * Nearest chunks of the corpus to a text, by embeddings: what an adversarial question is checked against.
 * The corpus is embedded once, on first use (the embeddings client batches and caches). Vectors that cannot be
 * compared (zero, not finite, wrong dimension) rank last instead of failing the check.
 */

export interface RetrievalChunk {
  id: string;
  /** What may be shown to the judge (chunks with personal data redacted). */
  text: string;
}

export interface Retrieval {
  /** The `k` nearest chunks, `first` always among them and in front. */
  nearest(text: string, k: number, first: RetrievalChunk, signal?: AbortSignal): Promise<RetrievalChunk[]>;
}

export function createRetrieval(
  corpus: readonly RetrievalChunk[],
  embeddings: EmbeddingsClient,
  onEmbedded?: (n: number) => void,
): Retrieval {
  let vectors: Promise<number[][]> | null = null;
  const corpusVectors = (signal?: AbortSignal) => {
    vectors ??= embeddings
      .embed(
        corpus.map((c) => c.text),
        signal,
      )
      .then((r) => {
        onEmbedded?.(corpus.length);
        return r.vectors;
      });
    // A failed embedding is retried on the next call, not remembered.
    vectors.catch(() => (vectors = null));
    return vectors;
  };
  return {
    async nearest(text, k, first, signal) {
      const [all, query] = await Promise.all([corpusVectors(signal), embeddings.embed([text], signal)]);
      const q = query.vectors[0] ?? [];
      const ranked = corpus
        .map((chunk, i) => ({ chunk, score: all[i] ? safeCosine(q, all[i]!) : null }))
        .filter((r) => r.chunk.id !== first.id)
        .sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || (a.chunk.id < b.chunk.id ? -1 : 1));
      return [first, ...ranked.slice(0, Math.max(0, k - 1)).map((r) => r.chunk)];
    },
  };
}
