/** The demo's knowledge base: support and internal documentation of the fictional company Lumora Hogar. */
export type DemoLanguage = 'es' | 'en';

export interface KnowledgeChunk {
  /** Stable id, e.g. `es-devoluciones-1`. */
  id: string;
  lang: DemoLanguage;
  /** Source document path, as a loader would record it. */
  source: string;
  /** Document title. */
  title: string;
  /** Topic used to pick related distractors and questions. */
  topic: KnowledgeTopic;
  text: string;
}

export type KnowledgeTopic =
  | 'products'
  | 'plans'
  | 'billing'
  | 'returns'
  | 'warranty'
  | 'shipping'
  | 'tech'
  | 'account'
  | 'privacy'
  | 'support'
  | 'hr';

export type GoldenType = 'single-hop' | 'multi-hop' | 'adversarial';
export type GoldenSplit = 'dev' | 'test';

/** One golden-set question with its reference answer, grounded in the chunks listed in `sources`. */
export interface GoldenItem {
  id: string;
  lang: DemoLanguage;
  type: GoldenType;
  split: GoldenSplit;
  question: string;
  reference: string;
  /** Chunk ids holding the facts of the reference; empty for questions the corpus cannot answer. */
  sources: string[];
}
