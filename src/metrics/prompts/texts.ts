import type { NamedLanguage, PromptLanguage } from '../language.js';
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

/** The English rules' language line, replaced for a sample in another language. */
const ENGLISH_OUTPUT = '- Write claims, statements and questions in English.';

/**
 * The texts of a sample's prompts: Spanish and English have their own; any other language gets the English
 * instructions, which name it and require every claim, statement and generated question in it.
 */
export function textsFor(language: PromptLanguage, named?: NamedLanguage): PromptTexts {
  if (named === undefined) return promptTexts[language];
  const line =
    `- The sample is in ${named.name}. Write every claim, statement and generated question in ${named.name}, ` +
    `as the sample writes it, never in English.`;
  return { ...english, rules: english.rules.replace(ENGLISH_OUTPUT, line) };
}
