import { afterEach, describe, expect, it } from 'vitest';
import { REJECTION_REASONS } from '../../../src/golden/types.js';
import { startGoldenHarness, type GoldenHarness } from './harness.js';

let h: GoldenHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Against a judge that honours the schemas and nothing else (every answer drawn at random from what the schema
 * admits; embeddings zero, opposite, huge or subnormal), the builder finishes: every candidate accepted or
 * rejected with a known reason, the review queue filled, a version published. Never a crash.
 */
describe('golden build against the fuzzing judge', () => {
  it.each([
    ['v3', 7],
    ['v4', 11],
  ] as const)(
    'Langfuse %s, fuzz seed %i: completes, every bad generation rejected with a reason',
    async (personality, seed) => {
      h = await startGoldenHarness(personality, {
        judge: { fuzz: { seed } },
        yaml: 'golden: {seeds: {min: 12}, review: {minAcceptance: 0}}',
      });
      const built = await h.cli('golden', 'build', '--corpus', 'corpus', '--json');
      expect(built.stderr).not.toMatch(/TypeError|RangeError|ReferenceError|at .*\.ts:\d+/);
      expect(built.code, built.stdout.slice(0, 2000)).toBe(0);
      const result = JSON.parse(built.stdout);
      expect(result.complete).toBe(true);
      const candidates = h.langfuse.store.datasetItems('rag-golden-candidates');
      expect(candidates.length).toBeGreaterThan(0);
      for (const item of candidates) {
        const m = item.metadata as { status: string; reason?: string };
        expect(['accepted', 'rejected']).toContain(m.status);
        if (m.status === 'rejected') expect(REJECTION_REASONS).toContain(m.reason);
      }
      expect(Object.keys(result.rejections).length).toBeGreaterThan(1);
      expect(h.judge.fuzzStats()!.chatAnswers).toBeGreaterThan(20);
      const applied = await h.cli('golden', 'review', '--apply', '--json');
      expect(applied.code, applied.stderr).toBe(0);
      expect(h.violations).toEqual([]);
    },
    120_000,
  );
});

describe('the judge filters against the fuzzing judge', () => {
  it('turn every schema-valid answer into a verdict: checks on well-formed candidates of every kind', async () => {
    const { startJudgeServer } = await import('@ragwatch/devkit/judge/index.js');
    const { createEmbeddingsClient, createJudgeClient, JudgeCallError } = await import('../../../src/judge/index.js');
    const { configSchema } = await import('../../helpers/config.js');
    const { faithfulnessCheck } = await import('../../../src/golden/edges.js');
    const { judgeVerdict } = await import('../../../src/golden/checks.js');
    const { createRetrieval } = await import('../../../src/golden/retrieval.js');
    const judgeServer = await startJudgeServer({ fuzz: { seed: 3 } });
    try {
      const judge = createJudgeClient({ baseUrl: judgeServer.url, model: judgeServer.model, maxAttempts: 1 });
      const embeddings = createEmbeddingsClient({
        baseUrl: judgeServer.url,
        model: judgeServer.embeddingModel,
        maxAttempts: 1,
      });
      const config = configSchema.parse({});
      const chunk = (id: string, text: string) => ({
        id,
        text,
        language: 'en' as const,
        document: 'doc',
        position: 0,
        metadata: {},
      });
      const chunks = [
        chunk('a', 'The Lumora Hub supports up to 120 paired devices and costs 149 euros.'),
        chunk('b', 'The Lumora Hub keeps running for about four hours on its backup battery.'),
        chunk('c', 'Returns are accepted within 30 days of delivery.'),
      ];
      const deps = {
        generator: judge,
        judge,
        faithfulness: faithfulnessCheck(config, judge, embeddings),
        retrieval: createRetrieval(chunks, embeddings),
        settings: config.golden.filters,
        budgetTokens: 2000,
      };
      const base = {
        seedKey: 's',
        language: 'en' as const,
        generator: 'g',
        promptVersion: 'p',
        reference: 'Up to 120 devices, for 149 euros.',
      };
      const kinds = [
        {
          ...base,
          id: '1',
          index: 0,
          stratum: 'single-hop' as const,
          question: 'How many devices can the Lumora Hub pair?',
          sourceChunkIds: ['a'],
        },
        {
          ...base,
          id: '2',
          index: 1,
          stratum: 'multi-hop' as const,
          question: 'How many devices and how long on battery?',
          sourceChunkIds: ['a', 'b'],
        },
        {
          ...base,
          id: '3',
          index: 2,
          stratum: 'adversarial' as const,
          question: 'Why does the Hub cost 299 euros?',
          sourceChunkIds: ['a'],
          adversarial: { kind: 'false_premise' as const, premise: 'The Hub costs 299 euros.' },
        },
        {
          ...base,
          id: '4',
          index: 3,
          stratum: 'adversarial' as const,
          question: 'Is the Hub sold in Japan?',
          sourceChunkIds: ['a'],
          adversarial: { kind: 'unanswerable' as const, premise: '' },
        },
      ];
      const outcomes = new Map<string, number>();
      for (let round = 0; round < 10; round++) {
        for (const candidate of kinds) {
          const seedChunks = candidate.stratum === 'multi-hop' ? chunks.slice(0, 2) : chunks.slice(0, 1);
          // A zero vector the fuzzing judge sends is the server's fault: a clean failure of the call, never a
          // verdict computed from it.
          const verdict = await judgeVerdict(candidate, seedChunks, deps).catch((err: unknown) => {
            expect(err).toBeInstanceOf(JudgeCallError);
            expect(err).toMatchObject({ kind: 'invalid_response' });
            return null;
          });
          const key = verdict === null ? 'judge_fault' : verdict.status === 'accepted' ? 'accepted' : verdict.reason;
          expect(['accepted', 'judge_fault', ...REJECTION_REASONS]).toContain(key);
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
      }
      expect([...outcomes.values()].reduce((a, b) => a + b)).toBe(40);
      expect(outcomes.size).toBeGreaterThan(1);
    } finally {
      await judgeServer.close();
    }
  }, 60_000);
});
