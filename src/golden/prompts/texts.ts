import type { Language } from '../types.js';
import { english } from './texts-en.js';
import { spanish } from './texts-es.js';

/**
 * The constant text of the golden-set prompts in one language: one system message for the generation tasks
 * (questions, adversarial questions, references: they share it, so vLLM's prefix cache serves it across seeds
 * and tasks), one for the closed-book answer and one for the adversarial check.
 */
export interface GoldenPromptTexts {
  generation: string;
  closedBook: string;
  support: string;
  questionCount: (n: number) => string;
  /** The reference of a question the corpus does not answer. */
  unanswerableReference: string;
}

export const goldenTexts: Record<Language, GoldenPromptTexts> = { en: english, es: spanish };
