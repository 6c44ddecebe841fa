/**
 * JSON Schemas (sent as `response_format.json_schema`, strict) and zod parsers (run again on arrival) of the
 * five judge tasks. Parsers also check what a schema cannot say on its own (a verdict for every chunk, chunk
 * numbers that exist); a failed check makes the answer unusable and the judge client retries with a repair.
 */
import { z } from 'zod';

const binary = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);
const chunkList = z.array(z.number().int()).transform((list) => [...new Set(list)].sort((a, b) => a - b));

/**
 * Per-count memo: building a zod schema is far dearer than running it (v4 compiles a fast path per
 * instance), and counts repeat (chunks per sample, questions per config). Past `MEMO_LIMIT` counts the
 * memo stops growing and unusual counts are built per call.
 */
const MEMO_LIMIT = 256;

function memoByCount<T>(build: (count: number) => T): (count: number) => T {
  const memo = new Map<number, T>();
  return (count) => {
    let value = memo.get(count);
    if (value === undefined) {
      value = build(count);
      if (memo.size < MEMO_LIMIT) memo.set(count, value);
    }
    return value;
  };
}

function chunkNumbers(max: number): Record<string, unknown> {
  return max > 0 ? { type: 'integer', minimum: 1, maximum: max } : { type: 'integer', minimum: 1 };
}

function strictObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

function checkChunkRange(list: number[], k: number, ctx: z.RefinementCtx, path: (string | number)[]): void {
  for (const n of list) {
    if (n < 1 || n > k) ctx.addIssue({ code: 'custom', message: `chunk ${n} does not exist (chunks are 1 to ${k})`, path });
  }
}

// faithfulness ----------------------------------------------------------------------------------------------

export interface JudgedClaim {
  claim: string;
  chunks: number[];
  supported: boolean;
}

export function faithfulnessSchema(chunkCount: number): Record<string, unknown> {
  return strictObject({
    claims: {
      type: 'array',
      items: strictObject({
        claim: { type: 'string' },
        chunks: { type: 'array', items: chunkNumbers(chunkCount) },
        verdict: { type: 'integer', enum: [0, 1] },
      }),
    },
  });
}

const faithfulnessShape = memoByCount((chunkCount) =>
  z
    .object({ claims: z.array(z.object({ claim: z.string(), chunks: chunkList, verdict: binary })) })
    .superRefine((v, ctx) => v.claims.forEach((c, i) => checkChunkRange(c.chunks, chunkCount, ctx, ['claims', i, 'chunks']))),
);

export function parseFaithfulness(chunkCount: number): (value: unknown) => JudgedClaim[] {
  const shape = faithfulnessShape(chunkCount);
  return (value) =>
    shape
      .parse(value)
      .claims.map((c) => ({ claim: c.claim.trim(), chunks: c.chunks, supported: c.verdict }))
      .filter((c) => c.claim !== '');
}

// answer relevancy ------------------------------------------------------------------------------------------

export interface GeneratedQuestion {
  question: string;
  noncommittal: boolean;
}

export function answerRelevancySchema(questionCount: number): Record<string, unknown> {
  const bounds = questionCount > 0 ? { minItems: questionCount, maxItems: questionCount } : {};
  return strictObject({
    questions: {
      type: 'array',
      ...bounds,
      items: strictObject({ question: { type: 'string' }, noncommittal: { type: 'integer', enum: [0, 1] } }),
    },
  });
}

/** At least one non-empty question; more than asked for are cut to the requested number. */
const answerRelevancyShape = z.object({ questions: z.array(z.object({ question: z.string(), noncommittal: binary })) });

export function parseAnswerRelevancy(questionCount: number): (value: unknown) => GeneratedQuestion[] {
  const shape = answerRelevancyShape;
  return (value) => {
    const questions = shape
      .parse(value)
      .questions.map((q) => ({ question: q.question.trim(), noncommittal: q.noncommittal }))
      .filter((q) => q.question !== '')
      .slice(0, questionCount);
    if (questions.length === 0) throw new Error('questions: no question was generated');
    return questions;
  };
}

// context precision -----------------------------------------------------------------------------------------

export function contextPrecisionSchema(chunkCount: number): Record<string, unknown> {
  const bounds = chunkCount > 0 ? { minItems: chunkCount, maxItems: chunkCount } : {};
  return strictObject({
    chunks: {
      type: 'array',
      ...bounds,
      items: strictObject({ chunk: chunkNumbers(chunkCount), useful: { type: 'integer', enum: [0, 1] } }),
    },
  });
}

/** One verdict per chunk, returned in retrieval order. */
const contextPrecisionShape = z.object({ chunks: z.array(z.object({ chunk: z.number().int(), useful: binary })) });

export function parseContextPrecision(chunkCount: number): (value: unknown) => boolean[] {
  const shape = contextPrecisionShape;
  return (value) => verdictPerItem(shape.parse(value).chunks.map((c) => [c.chunk, c.useful]), chunkCount, 'chunk');
}

// context recall --------------------------------------------------------------------------------------------

export interface AttributedStatement {
  statement: string;
  chunks: number[];
  attributed: boolean;
}

export function contextRecallSchema(chunkCount: number): Record<string, unknown> {
  return strictObject({
    statements: {
      type: 'array',
      items: strictObject({
        statement: { type: 'string' },
        chunks: { type: 'array', items: chunkNumbers(chunkCount) },
        attributed: { type: 'integer', enum: [0, 1] },
      }),
    },
  });
}

const contextRecallShape = memoByCount((chunkCount) =>
  z
    .object({ statements: z.array(z.object({ statement: z.string(), chunks: chunkList, attributed: binary })) })
    .superRefine((v, ctx) => v.statements.forEach((s, i) => checkChunkRange(s.chunks, chunkCount, ctx, ['statements', i, 'chunks']))),
);

export function parseContextRecall(chunkCount: number): (value: unknown) => AttributedStatement[] {
  const shape = contextRecallShape(chunkCount);
  return (value) =>
    shape
      .parse(value)
      .statements.map((s) => ({ statement: s.statement.trim(), chunks: s.chunks, attributed: s.attributed }))
      .filter((s) => s.statement !== '');
}

// claims vs reference (noise sensitivity) -------------------------------------------------------------------

export function claimsInReferenceSchema(claimCount: number): Record<string, unknown> {
  const bounds = claimCount > 0 ? { minItems: claimCount, maxItems: claimCount } : {};
  const claim = claimCount > 0 ? { type: 'integer', minimum: 1, maximum: claimCount } : { type: 'integer', minimum: 1 };
  return strictObject({
    claims: { type: 'array', ...bounds, items: strictObject({ claim, verdict: { type: 'integer', enum: [0, 1] } }) },
  });
}

/** One verdict per claim, in the order the claims were given. */
const claimsInReferenceShape = z.object({ claims: z.array(z.object({ claim: z.number().int(), verdict: binary })) });

export function parseClaimsInReference(claimCount: number): (value: unknown) => boolean[] {
  const shape = claimsInReferenceShape;
  return (value) => verdictPerItem(shape.parse(value).claims.map((c) => [c.claim, c.verdict]), claimCount, 'claim');
}

function verdictPerItem(pairs: [number, boolean][], count: number, what: string): boolean[] {
  const verdicts = new Array<boolean | undefined>(count).fill(undefined);
  for (const [n, v] of pairs) {
    if (n < 1 || n > count) throw new Error(`${what} ${n} does not exist (${what}s are 1 to ${count})`);
    if (verdicts[n - 1] !== undefined) throw new Error(`${what} ${n} was judged twice`);
    verdicts[n - 1] = v;
  }
  const missing = verdicts.flatMap((v, i) => (v === undefined ? [i + 1] : []));
  if (missing.length > 0) throw new Error(`no verdict for ${what}${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return verdicts as boolean[];
}
