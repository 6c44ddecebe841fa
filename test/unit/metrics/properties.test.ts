import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averagePrecision } from '../../../src/metrics/math.js';
import { scoreSample } from '../../../src/metrics/index.js';
import { allMetricNames } from '../../../src/metrics/registry.js';
import type { RagSample } from '../../../src/sample.js';
import { FakeEmbeddings, FakeJudge } from './fakes.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const options = defaultMetricsOptions();
const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
const verdict = fc.constantFrom(0, 1);
/** A claim as the parser compares claims for repeats: trimmed, whitespace and case folded. */
const foldedClaim = (c: { claim: string }) => c.claim.trim().normalize('NFC').replace(/\s+/g, ' ').toLowerCase();

const judgeOutputs = fc.record({
  k: fc.integer({ min: 1, max: 6 }),
  claims: fc.array(
    fc.record({ claim: text, verdict, chunks: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }) }),
    { maxLength: 8 },
  ),
  statements: fc.array(
    fc.record({
      statement: text,
      attributed: verdict,
      chunks: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    }),
    { maxLength: 8 },
  ),
  useful: fc.array(verdict, { minLength: 6, maxLength: 6 }),
  inReference: fc.array(verdict, { minLength: 8, maxLength: 8 }),
  questions: fc.array(fc.record({ question: text, noncommittal: verdict }), { minLength: 1, maxLength: 3 }),
  vectors: fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), {
    minLength: 4,
    maxLength: 4,
  }),
});

/** Every number anywhere inside a value (NaN and ±Infinity included). */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

function sampleWith(k: number): RagSample {
  return {
    traceId: 'p',
    question: 'What is it?',
    answer: 'It is a thing.',
    contexts: Array.from({ length: k }, (_, i) => `chunk ${i + 1}`),
    reference: 'A thing.',
    meta: {},
  };
}

describe('metric properties', () => {
  it('every value is a finite number in [0, 1]; nothing is NaN; a result is never a made-up 0 on failure', async () => {
    await fc.assert(
      fc.asyncProperty(judgeOutputs, async (o) => {
        const clampChunks = (list: number[]) => list.filter((c) => c <= o.k);
        const judge = new FakeJudge({
          ragwatch_faithfulness: () => ({ claims: o.claims.map((c) => ({ ...c, chunks: clampChunks(c.chunks) })) }),
          ragwatch_context_recall: () => ({
            statements: o.statements.map((s) => ({ ...s, chunks: clampChunks(s.chunks) })),
          }),
          ragwatch_context_precision: () => ({
            chunks: o.useful.slice(0, o.k).map((useful, i) => ({ chunk: i + 1, useful })),
          }),
          ragwatch_claims_in_reference: (req) => {
            const n = (req.schema as { properties: { claims: { maxItems?: number } } }).properties.claims.maxItems ?? 0;
            return {
              claims: Array.from({ length: n }, (_, i) => ({ claim: i + 1, verdict: o.inReference[i % 8] ?? 0 })),
            };
          },
          ragwatch_answer_relevancy: () => ({ questions: o.questions }),
        });
        const sample = sampleWith(o.k);
        const vectors: Record<string, number[]> = { [sample.question]: o.vectors[0] ?? [1, 0, 0] };
        o.questions.forEach((q, i) => (vectors[q.question] = o.vectors[(i % 3) + 1] ?? [0, 0, 0]));
        const results = await scoreSample(sample, allMetricNames(), {
          judge,
          embeddings: new FakeEmbeddings(vectors),
          options,
        });
        expect(results).toHaveLength(5);
        for (const r of results) {
          expect(numbersIn(r).every(Number.isFinite)).toBe(true);
          if (r.status === 'scored') {
            expect(Number.isFinite(r.value)).toBe(true);
            expect(r.value).toBeGreaterThanOrEqual(0);
            expect(r.value).toBeLessThanOrEqual(1);
          }
          if (r.status === 'failed') expect(r).not.toHaveProperty('value');
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });

  it('moving a useful chunk earlier never lowers average precision', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (verdicts) => {
        const relevantFirst = [...verdicts].sort((a, b) => Number(b) - Number(a));
        const relevantLast = [...verdicts].sort((a, b) => Number(a) - Number(b));
        const ap = averagePrecision(verdicts);
        expect(averagePrecision(relevantFirst)).toBeGreaterThanOrEqual(ap - 1e-12);
        expect(ap).toBeGreaterThanOrEqual(averagePrecision(relevantLast) - 1e-12);
        for (const v of [ap, averagePrecision(relevantFirst), averagePrecision(relevantLast)]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('permuting the claims never changes faithfulness', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Distinct claims: a repeated one counts once with its first verdict (definition 2), so order decides it.
        fc
          .uniqueArray(fc.record({ claim: text, verdict, chunks: fc.constant([] as number[]) }), {
            minLength: 1,
            maxLength: 10,
            selector: foldedClaim,
          })
          .chain((claims) =>
            fc.tuple(
              fc.constant(claims),
              fc.shuffledSubarray(claims, { minLength: claims.length, maxLength: claims.length }),
            ),
          ),
        async ([claims, permuted]) => {
          const score = async (list: typeof claims) => {
            const judge = new FakeJudge({ ragwatch_faithfulness: () => ({ claims: list }) });
            const [r] = await scoreSample(sampleWith(2), ['faithfulness'], {
              judge,
              embeddings: new FakeEmbeddings(),
              options,
            });
            return r?.status === 'scored' ? r.value : r?.status;
          };
          expect(await score(permuted)).toBe(await score(claims));
        },
      ),
      { numRuns: 100 },
    );
  });
});
