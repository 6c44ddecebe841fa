import { GOLDEN_ITEMS } from './data/golden.js';
import { KNOWLEDGE_EN } from './data/knowledge-en.js';
import { KNOWLEDGE_ES } from './data/knowledge-es.js';
import type { DemoLanguage, GoldenItem, KnowledgeChunk } from './types.js';

export { GOLDEN_ITEMS };

/** Every chunk of the demo knowledge base, Spanish first. */
export const KNOWLEDGE: readonly KnowledgeChunk[] = [...KNOWLEDGE_ES, ...KNOWLEDGE_EN];

const byId = new Map(KNOWLEDGE.map((chunk) => [chunk.id, chunk]));

export function chunkById(id: string): KnowledgeChunk {
  const chunk = byId.get(id);
  if (!chunk) throw new Error(`unknown knowledge chunk ${id}`);
  return chunk;
}

export function goldenItems(
  filter: { lang?: DemoLanguage; type?: GoldenItem['type']; split?: GoldenItem['split'] } = {},
): GoldenItem[] {
  return GOLDEN_ITEMS.filter(
    (item) =>
      (!filter.lang || item.lang === filter.lang) &&
      (!filter.type || item.type === filter.type) &&
      (!filter.split || item.split === filter.split),
  );
}

const STOPWORDS = new Set(
  (
    'a al algo ante con como cual cuales cuando de del desde donde el ella en entre es esta este esto hay la las le les lo los mas me mi mis muy no nos o os para pero por que se si sin sobre su sus te tengo tiene tu un una uno unos y ya yo ' +
    'about an and are as at be by can do does for from has have how i if in is it its me my no not of on or our so that the their them then there this to up was we what when where which who why will with you your'
  ).split(' '),
);

/** Lower-cased, accent-free word stems (a trailing plural `s`/`es` removed) without stopwords. */
export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map((w) =>
      w.length > 4 && w.endsWith('es') ? w.slice(0, -2) : w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w,
    );
}

interface IndexedChunk {
  chunk: KnowledgeChunk;
  tf: Map<string, number>;
  length: number;
}

const indexes = new Map<DemoLanguage, { docs: IndexedChunk[]; df: Map<string, number>; avgLength: number }>();

function indexFor(lang: DemoLanguage) {
  let index = indexes.get(lang);
  if (!index) {
    const docs = KNOWLEDGE.filter((c) => c.lang === lang).map((chunk) => {
      const words = terms(`${chunk.title} ${chunk.text}`);
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      return { chunk, tf, length: words.length };
    });
    const df = new Map<string, number>();
    for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    index = { docs, df, avgLength: docs.reduce((s, d) => s + d.length, 0) / docs.length };
    indexes.set(lang, index);
  }
  return index;
}

export interface ScoredChunk {
  chunk: KnowledgeChunk;
  score: number;
}

/**
 * BM25 over the chunks of one language: the demo's retriever. Deterministic, no embeddings, good enough
 * to return plausible neighbours (and plausible misses) for any question.
 */
export function searchKnowledge(
  query: string,
  options: { lang: DemoLanguage; k?: number; exclude?: ReadonlySet<string> },
): ScoredChunk[] {
  const { docs, df, avgLength } = indexFor(options.lang);
  const q = [...new Set(terms(query))];
  const k1 = 1.2;
  const b = 0.75;
  const scored = docs
    .filter((d) => !options.exclude?.has(d.chunk.id))
    .map((d) => {
      let score = 0;
      for (const w of q) {
        const f = d.tf.get(w);
        if (!f) continue;
        const n = df.get(w) ?? 0;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgLength));
      }
      return { chunk: d.chunk, score };
    })
    .filter((s) => s.score > 0)
    .sort((x, y) => y.score - x.score || x.chunk.id.localeCompare(y.chunk.id));
  return scored.slice(0, options.k ?? 4);
}
