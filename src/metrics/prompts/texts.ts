import type { PromptLanguage } from '../language.js';
import { english } from './texts-en.js';
import { spanish } from './texts-es.js';

/**
 * The constant text of the judge prompts in one language. Two system prompts are built from it: the answer
 * family (faithfulness, answer relevancy) and the reference family (context precision, context recall,
 * claims vs reference). Both start with `rules`, and within a family every task shares the system prompt, so
 * vLLM's prefix cache serves the constant part across samples and the sample's opening across tasks.
 */
export interface PromptTexts {
  rules: string;
  answerTasks: string;
  referenceTasks: string;
  questionCount: (n: number) => string;
  noContexts: string;
}

export const promptTexts: Record<PromptLanguage, PromptTexts> = { en: english, es: spanish };
