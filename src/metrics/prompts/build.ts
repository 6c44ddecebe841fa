/**
 * Builds the judge requests. Layout, for vLLM's prefix cache:
 *   system: rules + the family's task instructions, formats and few-shot example (constant per language)
 *   user:   the sample's texts in a fixed order, then one `TASK:` line
 * Answer family user message:    <answer> | <question> <contexts> | TASK
 * Reference family user message: <question> <contexts> <reference> | <claims> | TASK
 * so a task's message starts with the whole message of the previous task of its family, up to the TASK line.
 */
import { createHash } from 'node:crypto';
import type { StructuredRequest } from '../../judge/types.js';
import type { NamedLanguage, PromptLanguage } from '../language.js';
import type { PreparedSample } from '../prepare.js';
import {
  answerRelevancySchema,
  claimsInReferenceSchema,
  contextPrecisionSchema,
  contextRecallSchema,
  faithfulnessSchema,
  parseAnswerRelevancy,
  parseClaimsInReference,
  parseContextPrecision,
  parseContextRecall,
  parseFaithfulness,
  type AttributedStatement,
  type GeneratedQuestion,
  type Judged,
  type JudgedClaim,
  type Verdicts,
} from './schemas.js';
import { textsFor } from './texts.js';

export type JudgeTask =
  'faithfulness' | 'answer_relevancy' | 'context_precision' | 'context_recall' | 'claims_in_reference';
export type PromptFamily = 'answer' | 'reference';

const FAMILY: Record<JudgeTask, PromptFamily> = {
  faithfulness: 'answer',
  answer_relevancy: 'answer',
  context_precision: 'reference',
  context_recall: 'reference',
  claims_in_reference: 'reference',
};

/** `response_format.json_schema.name` of each task: how the judge stand-in and the docs recognise a prompt. */
export const SCHEMA_NAMES: Record<JudgeTask, string> = {
  faithfulness: 'ragwatch_faithfulness',
  answer_relevancy: 'ragwatch_answer_relevancy',
  context_precision: 'ragwatch_context_precision',
  context_recall: 'ragwatch_context_recall',
  claims_in_reference: 'ragwatch_claims_in_reference',
};

/** The family whose system prompt carries the task's instructions (see the layout above). */
export function taskFamily(task: JudgeTask): PromptFamily {
  return FAMILY[task];
}

export function systemPrompt(task: JudgeTask, language: PromptLanguage, named?: NamedLanguage): string {
  const t = textsFor(language, named);
  return `${t.rules}\n\n${FAMILY[task] === 'answer' ? t.answerTasks : t.referenceTasks}`;
}

/** Tags and lines of the user message; changing them changes every prompt version. */
const LAYOUT = 'answer|question|contexts[n]|reference|claims n.|TASK: name';

const BASE_SCHEMA: Record<JudgeTask, Record<string, unknown>> = {
  faithfulness: faithfulnessSchema(0),
  answer_relevancy: answerRelevancySchema(0),
  context_precision: contextPrecisionSchema(0),
  context_recall: contextRecallSchema(0),
  claims_in_reference: claimsInReferenceSchema(0),
};

const versions = new Map<string, string>();

/**
 * Content hash of everything constant in a task's prompt: system text, layout, schema. Prefixed with the
 * language the prompt asks for: `es-…`, `en-…`, or the named language's code (`fr-…`) on the English instructions.
 */
export function promptVersion(task: JudgeTask, language: PromptLanguage, named?: NamedLanguage): string {
  const key = `${task}:${language}:${named?.code ?? ''}`;
  let v = versions.get(key);
  if (v === undefined) {
    const hash = createHash('sha256')
      .update(JSON.stringify([SCHEMA_NAMES[task], systemPrompt(task, language, named), LAYOUT, BASE_SCHEMA[task]]))
      .digest('hex')
      .slice(0, 12);
    v = `${named?.code ?? language}-${hash}`;
    versions.set(key, v);
  }
  return v;
}

/** One version for a metric that uses several prompts. */
export function combinedVersion(parts: string[]): string {
  if (parts.length === 1) return parts[0] ?? '';
  const language = parts[0]?.split('-')[0] ?? '';
  return `${language}-${createHash('sha256').update(parts.join('+')).digest('hex').slice(0, 12)}`;
}

function contextsBlock(p: PreparedSample): string {
  const body =
    p.contexts.length === 0
      ? textsFor(p.language, p.named).noContexts
      : p.contexts.map((c, i) => `[${i + 1}] ${c}`).join('\n');
  return `<contexts>\n${body}\n</contexts>`;
}

function answerBlock(p: PreparedSample): string {
  return `<answer>${p.answer}</answer>`;
}

function referenceFamilyBlock(p: PreparedSample): string {
  return `<question>${p.question}</question>\n${contextsBlock(p)}\n<reference>${p.reference ?? ''}</reference>`;
}

function request<T>(
  task: JudgeTask,
  p: PreparedSample,
  user: string,
  schema: Record<string, unknown>,
  parse: (v: unknown) => T,
  maxTokens: number,
): StructuredRequest<T> {
  return {
    name: SCHEMA_NAMES[task],
    schema,
    parse,
    messages: [
      { role: 'system', content: systemPrompt(task, p.language, p.named) },
      { role: 'user', content: user },
    ],
    maxTokens,
  };
}

/** A rough completion allowance: room for the JSON around texts of the given size. */
function allowance(base: number, perItem: number, items: number): number {
  return Math.min(8192, Math.ceil(base + perItem * items));
}

function approxTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

export function faithfulnessRequest(p: PreparedSample): StructuredRequest<Judged<JudgedClaim>> {
  const user = `${answerBlock(p)}\n<question>${p.question}</question>\n${contextsBlock(p)}\nTASK: faithfulness`;
  const k = p.contexts.length;
  return request(
    'faithfulness',
    p,
    user,
    faithfulnessSchema(k),
    parseFaithfulness(k),
    allowance(256, 2, approxTokens(p.answer)),
  );
}

export function answerRelevancyRequest(
  p: PreparedSample,
  questionCount: number,
): StructuredRequest<GeneratedQuestion[]> {
  const user = `${answerBlock(p)}\nTASK: answer_relevancy (${textsFor(p.language, p.named).questionCount(questionCount)})`;
  return request(
    'answer_relevancy',
    p,
    user,
    answerRelevancySchema(questionCount),
    parseAnswerRelevancy(questionCount),
    allowance(64, 80, questionCount),
  );
}

export function contextPrecisionRequest(p: PreparedSample): StructuredRequest<Verdicts> {
  const k = p.contexts.length;
  const user = `${referenceFamilyBlock(p)}\nTASK: context_precision`;
  return request(
    'context_precision',
    p,
    user,
    contextPrecisionSchema(k),
    parseContextPrecision(k),
    allowance(32, 16, k),
  );
}

export function contextRecallRequest(p: PreparedSample): StructuredRequest<Judged<AttributedStatement>> {
  const k = p.contexts.length;
  const user = `${referenceFamilyBlock(p)}\nTASK: context_recall`;
  return request(
    'context_recall',
    p,
    user,
    contextRecallSchema(k),
    parseContextRecall(k),
    allowance(256, 2, approxTokens(p.reference ?? '')),
  );
}

export function claimsInReferenceRequest(p: PreparedSample, claims: string[]): StructuredRequest<Verdicts> {
  const list = claims.map((c, i) => `${i + 1}. ${c.replace(/\s+/g, ' ')}`).join('\n');
  const user = `${referenceFamilyBlock(p)}\n<claims>\n${list}\n</claims>\nTASK: claims_in_reference`;
  return request(
    'claims_in_reference',
    p,
    user,
    claimsInReferenceSchema(claims.length),
    parseClaimsInReference(claims.length),
    allowance(32, 16, claims.length),
  );
}
