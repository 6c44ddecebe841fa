/**
 * The golden-set judge requests. Layout, for vLLM's prefix cache: the system message is constant per task family
 * and language; the user message holds the seed's chunks first, then the task's own parts, then one `TASK:` line,
 * so the references call starts with the questions call's chunks.
 */
import type { StructuredRequest } from '../../judge/index.js';
import { fitChunks } from '../../metrics/index.js';
import { sha256 } from '../ids.js';
import type { Language } from '../types.js';
import {
  adversarialSchema,
  closedBookSchema,
  GOLDEN_SCHEMA_NAMES,
  parseAdversarial,
  parseClosedBook,
  parseQuestions,
  parseReferences,
  parseSupport,
  questionsSchema,
  referencesSchema,
  supportSchema,
  type AdversarialQuestion,
  type ClosedBookAnswer,
  type GeneratedReference,
  type GoldenTask,
} from './schemas.js';
import { goldenTexts } from './texts.js';

/** Tags and lines of the user messages; changing them changes every prompt version. */
const LAYOUT = 'chunks[n]|questions n.|question|statement|TASK: name (count)';

export function goldenSystemPrompt(task: GoldenTask, language: Language): string {
  const t = goldenTexts[language];
  if (task === 'closedBook') return t.closedBook;
  if (task === 'support') return t.support;
  return t.generation;
}

const BASE_SCHEMA: Record<GoldenTask, Record<string, unknown>> = {
  questions: questionsSchema(0),
  adversarial: adversarialSchema(0),
  references: referencesSchema(0),
  closedBook: closedBookSchema(),
  support: supportSchema(0),
};

/** Content hash of everything constant in a task's prompt: system text, layout, schema. */
export function goldenPromptVersion(task: GoldenTask, language: Language): string {
  const hash = sha256(GOLDEN_SCHEMA_NAMES[task], goldenSystemPrompt(task, language), LAYOUT, BASE_SCHEMA[task]).slice(
    0,
    12,
  );
  return `${language}-${hash}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function chunksBlock(chunks: readonly string[], budgetTokens: number): string {
  const fitted = fitChunks(chunks.map(oneLine), budgetTokens).chunks;
  return `<chunks>\n${fitted.map((c, i) => `[${i + 1}] ${c.text}`).join('\n')}\n</chunks>`;
}

function request<T>(
  task: GoldenTask,
  language: Language,
  user: string,
  schema: Record<string, unknown>,
  parse: (v: unknown) => T,
  maxTokens: number,
): StructuredRequest<T> {
  return {
    name: GOLDEN_SCHEMA_NAMES[task],
    schema,
    parse,
    messages: [
      { role: 'system', content: goldenSystemPrompt(task, language) },
      { role: 'user', content: user },
    ],
    maxTokens,
  };
}

export interface PromptChunks {
  texts: readonly string[];
  language: Language;
  /** Token budget of all chunks together. */
  budgetTokens: number;
}

export function questionsRequest(
  c: PromptChunks,
  stratum: 'single-hop' | 'multi-hop',
  count: number,
): StructuredRequest<string[]> {
  const task = stratum === 'single-hop' ? 'single_hop' : 'multi_hop';
  const user = `${chunksBlock(c.texts, c.budgetTokens)}\nTASK: ${task} (${goldenTexts[c.language].questionCount(count)})`;
  return request('questions', c.language, user, questionsSchema(count), parseQuestions(count), 120 + 80 * count);
}

export function adversarialRequest(c: PromptChunks, count: number): StructuredRequest<AdversarialQuestion[]> {
  const user = `${chunksBlock(c.texts, c.budgetTokens)}\nTASK: adversarial (${goldenTexts[c.language].questionCount(count)})`;
  return request('adversarial', c.language, user, adversarialSchema(count), parseAdversarial(count), 160 + 200 * count);
}

export function referencesRequest(
  c: PromptChunks,
  questions: readonly string[],
): StructuredRequest<GeneratedReference[]> {
  const list = questions.map((q, i) => `${i + 1}. ${oneLine(q)}`).join('\n');
  const user = `${chunksBlock(c.texts, c.budgetTokens)}\n<questions>\n${list}\n</questions>\nTASK: references`;
  return request(
    'references',
    c.language,
    user,
    referencesSchema(questions.length),
    parseReferences(questions.length),
    160 + 300 * questions.length,
  );
}

export function closedBookRequest(question: string, language: Language): StructuredRequest<ClosedBookAnswer> {
  const user = `<question>${oneLine(question)}</question>\nTASK: closed_book`;
  return request('closedBook', language, user, closedBookSchema(), parseClosedBook, 400);
}

export function supportRequest(
  statement: string,
  mode: 'false_premise' | 'answers_question',
  c: PromptChunks,
): StructuredRequest<boolean[]> {
  const user = `<statement>${oneLine(statement)}</statement>\n${chunksBlock(c.texts, c.budgetTokens)}\nTASK: ${mode}`;
  return request(
    'support',
    c.language,
    user,
    supportSchema(c.texts.length),
    parseSupport(c.texts.length),
    64 + 16 * c.texts.length,
  );
}
