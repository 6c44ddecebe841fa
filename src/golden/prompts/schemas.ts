/**
 * Schemas (sent as `response_format.json_schema`, strict) and parsers of the golden-set tasks. The schema is the
 * contract: exact counts, positional rows with fixed numbers, enums. Whatever a schema admits parses; what the
 * texts say is judged afterwards by the filters (a blank question is a rejected candidate, never a crash). A
 * parser rejects only what the schema excludes, which a judge without structured output may send.
 */
import { z } from 'zod';
import type { AdversarialKind } from '../types.js';

export const GOLDEN_SCHEMA_NAMES = {
  questions: 'ragwatch_golden_questions',
  adversarial: 'ragwatch_golden_adversarial',
  references: 'ragwatch_golden_references',
  closedBook: 'ragwatch_golden_closed_book',
  support: 'ragwatch_golden_support',
} as const;
export type GoldenTask = keyof typeof GOLDEN_SCHEMA_NAMES;

function strictObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

const flag = { type: 'integer', enum: [0, 1] };
const binary = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);

function exactly(count: number, item: Record<string, unknown>): Record<string, unknown> {
  return { type: 'array', minItems: count, maxItems: count, items: item };
}

/** One row per numbered thing, in order, each carrying its number (`const`): none judged twice or left out. */
function positional(count: number, key: string, fields: Record<string, unknown>): Record<string, unknown> {
  const row = (n: number) => strictObject({ [key]: { type: 'integer', const: n }, ...fields });
  return {
    type: 'array',
    minItems: count,
    maxItems: count,
    prefixItems: Array.from({ length: count }, (_, i) => row(i + 1)),
  };
}

/** Rows by number: a repeated number keeps its first row; a missing or unknown one makes the answer unusable. */
function byNumber<T>(rows: Array<[number, T]>, count: number, what: string): T[] {
  const out = new Array<T | undefined>(count).fill(undefined);
  for (const [n, row] of rows) {
    if (!Number.isInteger(n) || n < 1 || n > count)
      throw new Error(`${what} ${n} does not exist (${what}s are 1 to ${count})`);
    out[n - 1] ??= row;
  }
  const missing = out.flatMap((v, i) => (v === undefined ? [i + 1] : []));
  if (missing.length > 0) throw new Error(`no row for ${what} ${missing.join(', ')}`);
  return out as T[];
}

// questions (single-hop, multi-hop) ---------------------------------------------------------------------------

export function questionsSchema(count: number): Record<string, unknown> {
  return strictObject({ questions: exactly(count, strictObject({ question: { type: 'string' } })) });
}

const questionsShape = z.object({ questions: z.array(z.object({ question: z.string() })) });

export function parseQuestions(count: number): (value: unknown) => string[] {
  return (value) => {
    const questions = questionsShape
      .parse(value)
      .questions.slice(0, count)
      .map((q) => q.question);
    if (questions.length < count) throw new Error(`${questions.length} questions instead of ${count}`);
    return questions;
  };
}

// adversarial questions ---------------------------------------------------------------------------------------

export interface AdversarialQuestion {
  kind: AdversarialKind;
  question: string;
  premise: string;
  correction: string;
}

export function adversarialSchema(count: number): Record<string, unknown> {
  const row = strictObject({
    kind: { type: 'string', enum: ['false_premise', 'unanswerable'] },
    question: { type: 'string' },
    premise: { type: 'string' },
    correction: { type: 'string' },
  });
  return strictObject({ questions: exactly(count, row) });
}

const adversarialShape = z.object({
  questions: z.array(
    z.object({
      kind: z.enum(['false_premise', 'unanswerable']),
      question: z.string(),
      premise: z.string(),
      correction: z.string(),
    }),
  ),
});

export function parseAdversarial(count: number): (value: unknown) => AdversarialQuestion[] {
  return (value) => {
    const questions = adversarialShape.parse(value).questions.slice(0, count);
    if (questions.length < count) throw new Error(`${questions.length} questions instead of ${count}`);
    return questions;
  };
}

// references --------------------------------------------------------------------------------------------------

export interface GeneratedReference {
  answerable: boolean;
  answer: string;
}

export function referencesSchema(count: number): Record<string, unknown> {
  return strictObject({ answers: positional(count, 'question', { answerable: flag, answer: { type: 'string' } }) });
}

const referencesShape = z.object({
  answers: z.array(z.object({ question: z.number(), answerable: binary, answer: z.string() })),
});

export function parseReferences(count: number): (value: unknown) => GeneratedReference[] {
  return (value) =>
    byNumber(
      referencesShape.parse(value).answers.map((a) => [a.question, { answerable: a.answerable, answer: a.answer }]),
      count,
      'question',
    );
}

// closed-book answer ------------------------------------------------------------------------------------------

export interface ClosedBookAnswer {
  known: boolean;
  answer: string;
}

export function closedBookSchema(): Record<string, unknown> {
  return strictObject({ known: flag, answer: { type: 'string' } });
}

const closedBookShape = z.object({ known: binary, answer: z.string() });

export const parseClosedBook = (value: unknown): ClosedBookAnswer => closedBookShape.parse(value);

// adversarial check -------------------------------------------------------------------------------------------

export function supportSchema(chunkCount: number): Record<string, unknown> {
  return strictObject({ chunks: positional(chunkCount, 'chunk', { supports: flag }) });
}

const supportShape = z.object({ chunks: z.array(z.object({ chunk: z.number(), supports: binary })) });

/** One verdict per chunk shown, in order. */
export function parseSupport(chunkCount: number): (value: unknown) => boolean[] {
  return (value) =>
    byNumber(
      supportShape.parse(value).chunks.map((c) => [c.chunk, c.supports]),
      chunkCount,
      'chunk',
    );
}
