/**
 * JSON Schemas (sent as `response_format.json_schema`, strict) and zod parsers (run again on arrival) of the
 * five judge tasks. Under vLLM's structured output the schema is the contract: the judge can send anything it
 * admits, so every rule lives in the schema (positional rows with fixed numbers, enums, bounded chunk numbers,
 * exact lengths) and whatever it still admits (blank texts, repeated claims or chunk numbers) is resolved here,
 * deterministically: every schema-valid answer parses. A parser only rejects what the schema itself excludes,
 * which a judge without structured output may send; the client then retries with a repair.
 */
import { z } from 'zod';

const binary = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === 1 || v === true);
const chunkNumbers = z.array(z.number().int()).transform((list) => [...new Set(list)].sort((a, b) => a - b));

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

/** Chunk numbers citing the K chunks shown; none at all when no chunk was shown. */
function chunkList(count: number): Record<string, unknown> {
  if (count === 0) return { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 0 };
  return { type: 'array', items: { type: 'integer', minimum: 1, maximum: count } };
}

/**
 * One row per numbered item, in order, each carrying its own number: `[{chunk: 1, …}, {chunk: 2, …}]`. The
 * number is fixed per position (`const`), so no item can be judged twice or left out.
 */
function positionalRows(count: number, key: string, verdict: string): Record<string, unknown> {
  const row = (n: number) =>
    strictObject({ [key]: { type: 'integer', const: n }, [verdict]: { type: 'integer', enum: [0, 1] } });
  return {
    type: 'array',
    minItems: count,
    maxItems: count,
    prefixItems: Array.from({ length: count }, (_, i) => row(i + 1)),
  };
}

function strictObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

function checkChunkRange(list: number[], k: number, ctx: z.RefinementCtx, path: (string | number)[]): void {
  for (const n of list) {
    if (n < 1 || n > k)
      ctx.addIssue({ code: 'custom', message: `chunk ${n} does not exist (chunks are 1 to ${k})`, path });
  }
}

// faithfulness ----------------------------------------------------------------------------------------------

export interface JudgedClaim {
  claim: string;
  chunks: number[];
  supported: boolean;
}

/** Claims as judged, after the parser's resolutions (what `details.resolved` reports). */
export interface Judged<T> {
  items: T[];
  /** Blank texts dropped, and repeated texts dropped after their first occurrence (the first one's verdict counts). */
  resolved: { blank: number; repeated: number };
}

export function faithfulnessSchema(chunkCount: number): Record<string, unknown> {
  return strictObject({
    claims: {
      type: 'array',
      items: strictObject({
        claim: { type: 'string' },
        chunks: chunkList(chunkCount),
        verdict: { type: 'integer', enum: [0, 1] },
      }),
    },
  });
}

const faithfulnessShape = memoByCount((chunkCount) =>
  z
    .object({ claims: z.array(z.object({ claim: z.string(), chunks: chunkNumbers, verdict: binary })) })
    .superRefine((v, ctx) =>
      v.claims.forEach((c, i) => checkChunkRange(c.chunks, chunkCount, ctx, ['claims', i, 'chunks'])),
    ),
);

export function parseFaithfulness(chunkCount: number): (value: unknown) => Judged<JudgedClaim> {
  const shape = faithfulnessShape(chunkCount);
  return (value) =>
    distinctTexts(
      shape.parse(value).claims.map((c) => ({ claim: c.claim.trim(), chunks: c.chunks, supported: c.verdict })),
      (c) => c.claim,
    );
}

/**
 * Drops blank texts and repeats of a text already seen (same words once whitespace and case are folded), keeping
 * the first: a claim judged twice counts once, with its first verdict.
 */
function distinctTexts<T>(rows: T[], text: (row: T) => string): Judged<T> {
  const seen = new Set<string>();
  const items: T[] = [];
  let blank = 0;
  let repeated = 0;
  for (const row of rows) {
    const t = text(row);
    if (t === '') {
      blank += 1;
      continue;
    }
    const key = t.normalize('NFC').replace(/\s+/g, ' ').toLowerCase();
    if (seen.has(key)) {
      repeated += 1;
      continue;
    }
    seen.add(key);
    items.push(row);
  }
  return { items, resolved: { blank, repeated } };
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

/**
 * The generations as sent, questions trimmed (a blank one stays, with its noncommittal flag; the metric leaves it
 * out of the cosines). More than asked for (only from a judge without structured output) are cut to the number.
 */
const answerRelevancyShape = z.object({ questions: z.array(z.object({ question: z.string(), noncommittal: binary })) });

export function parseAnswerRelevancy(questionCount: number): (value: unknown) => GeneratedQuestion[] {
  const shape = answerRelevancyShape;
  return (value) =>
    shape
      .parse(value)
      .questions.slice(0, questionCount)
      .map((q) => ({ question: q.question.trim(), noncommittal: q.noncommittal }));
}

// context precision -----------------------------------------------------------------------------------------

export function contextPrecisionSchema(chunkCount: number): Record<string, unknown> {
  return strictObject({ chunks: positionalRows(chunkCount, 'chunk', 'useful') });
}

/** One verdict per chunk, returned in retrieval order. */
const contextPrecisionShape = z.object({ chunks: z.array(z.object({ chunk: z.number().int(), useful: binary })) });

export function parseContextPrecision(chunkCount: number): (value: unknown) => Verdicts {
  const shape = contextPrecisionShape;
  return (value) =>
    verdictPerItem(
      shape.parse(value).chunks.map((c) => [c.chunk, c.useful]),
      chunkCount,
      'chunk',
    );
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
        chunks: chunkList(chunkCount),
        attributed: { type: 'integer', enum: [0, 1] },
      }),
    },
  });
}

const contextRecallShape = memoByCount((chunkCount) =>
  z
    .object({ statements: z.array(z.object({ statement: z.string(), chunks: chunkNumbers, attributed: binary })) })
    .superRefine((v, ctx) =>
      v.statements.forEach((s, i) => checkChunkRange(s.chunks, chunkCount, ctx, ['statements', i, 'chunks'])),
    ),
);

export function parseContextRecall(chunkCount: number): (value: unknown) => Judged<AttributedStatement> {
  const shape = contextRecallShape(chunkCount);
  return (value) =>
    distinctTexts(
      shape
        .parse(value)
        .statements.map((s) => ({ statement: s.statement.trim(), chunks: s.chunks, attributed: s.attributed })),
      (s) => s.statement,
    );
}

// claims vs reference (noise sensitivity) -------------------------------------------------------------------

export function claimsInReferenceSchema(claimCount: number): Record<string, unknown> {
  return strictObject({ claims: positionalRows(claimCount, 'claim', 'verdict') });
}

/** One verdict per claim, in the order the claims were given. */
const claimsInReferenceShape = z.object({ claims: z.array(z.object({ claim: z.number().int(), verdict: binary })) });

export function parseClaimsInReference(claimCount: number): (value: unknown) => Verdicts {
  const shape = claimsInReferenceShape;
  return (value) =>
    verdictPerItem(
      shape.parse(value).claims.map((c) => [c.claim, c.verdict]),
      claimCount,
      'claim',
    );
}

/** A verdict per numbered item, in order; `repeated` lists numbers judged again (the first verdict counts). */
export interface Verdicts {
  verdicts: boolean[];
  repeated: number[];
}

/**
 * Verdicts by number. The positional schema sends each number once, in order; a judge without structured output
 * may not: a repeated number keeps its first verdict, while a number out of range or a missing one makes the
 * answer unusable (a verdict cannot be made up), and the client asks again.
 */
function verdictPerItem(pairs: [number, boolean][], count: number, what: string): Verdicts {
  const verdicts = new Array<boolean | undefined>(count).fill(undefined);
  const repeated: number[] = [];
  for (const [n, v] of pairs) {
    if (n < 1 || n > count) throw new Error(`${what} ${n} does not exist (${what}s are 1 to ${count})`);
    if (verdicts[n - 1] !== undefined) repeated.push(n);
    else verdicts[n - 1] = v;
  }
  const missing = verdicts.flatMap((v, i) => (v === undefined ? [i + 1] : []));
  if (missing.length > 0)
    throw new Error(`no verdict for ${what}${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return { verdicts: verdicts as boolean[], repeated };
}
