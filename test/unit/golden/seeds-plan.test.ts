import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, drawOrder } from '../../../src/golden/ids.js';
import { planBuild, strataCounts } from '../../../src/golden/plan.js';
import { relatedChunks, relatedIndex, entitiesOf } from '../../../src/golden/related.js';
import { bucketOf, eligibility, seedCount, selectSeeds } from '../../../src/golden/seeds.js';
import type { Chunk } from '../../../src/golden/types.js';
import { configSchema } from '../../helpers/config.js';

const chunk = (id: string, extra: Partial<Chunk> = {}): Chunk => ({
  id,
  text: `Chunk ${id} says something long enough to be a seed about the product and its settings. `.repeat(4),
  language: 'en',
  document: null,
  position: 0,
  metadata: {},
  ...extra,
});
const noPersonalData = { found: () => false, redact: (t: string) => t };

describe('allocate', () => {
  it('spreads the total in proportion, within caps, one each first when it can (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 20 }), { minKeys: 1 }),
        (total, sizes) => {
          const out = allocate(total, sizes, sizes, true);
          const capacity = Object.values(sizes)
            .filter((n) => n > 0)
            .reduce((s, n) => s + n, 0);
          expect(Object.values(out).reduce((s, n) => s + n, 0)).toBe(Math.min(total, capacity));
          for (const [k, n] of Object.entries(out)) expect(n).toBeLessThanOrEqual(sizes[k]!);
          const live = Object.values(sizes).filter((n) => n > 0).length;
          if (total >= live)
            for (const [k, size] of Object.entries(sizes)) if (size > 0) expect(out[k]).toBeGreaterThanOrEqual(1);
        },
      ),
    );
    expect(allocate(10, { a: 3, b: 1 }, { a: 100, b: 100 })).toEqual({ a: 8, b: 2 });
    expect(allocate(10, { a: 3, b: 1 }, { a: 5, b: 100 })).toEqual({ a: 5, b: 5 });
  });
});

describe('seed chunks', () => {
  it('leaves out chunks with personal data, short ones and repeated texts', () => {
    const pii = { found: (t: string) => t.includes('@'), redact: (t: string) => t };
    const e = eligibility(
      [
        chunk('a'),
        chunk('b', { text: 'mail me at x@y.z '.repeat(20) }),
        chunk('c', { text: 'short' }),
        chunk('d', { text: chunk('a').text.toUpperCase() }),
      ],
      { minChars: 100, personalData: pii },
    );
    expect(e.eligible.map((c) => c.id)).toEqual(['a']);
    expect(e.excluded).toEqual({ personal_data: 1, too_short: 1, repeated_text: 1 });
    expect([...e.personal]).toEqual(['b']);
  });

  it('counts 750 seeds per 10,000 chunks by default, within min and max', () => {
    const s = configSchema.parse({}).golden.seeds;
    expect(seedCount(10_000, s)).toBe(750);
    expect(seedCount(100, s)).toBe(20);
    expect(seedCount(12, s)).toBe(12);
    expect(seedCount(100_000, s)).toBe(1000);
  });

  it('groups dates into buckets', () => {
    const c = chunk('a', { metadata: { updated: '2025-05-17T10:00:00Z', section: 'faq' } });
    expect(bucketOf(c, 'updated', 'month')).toBe('2025-05');
    expect(bucketOf(c, 'updated', 'quarter')).toBe('2025-Q2');
    expect(bucketOf(c, 'updated', 'year')).toBe('2025');
    expect(bucketOf(c, 'section', 'month')).toBe('faq');
    expect(bucketOf(c, 'missing', 'none')).toBe('(none)');
  });

  it('stratifies over the key and is stable: a chunk added elsewhere does not change a bucket’s draw', () => {
    const corpus = [
      ...Array.from({ length: 30 }, (_, i) => chunk(`faq-${i}`, { metadata: { section: 'faq' } })),
      ...Array.from({ length: 10 }, (_, i) => chunk(`api-${i}`, { metadata: { section: 'api' } })),
      chunk('lone', { metadata: { section: 'legal' } }),
    ];
    const options = { count: 8, strataKey: 'section', dateBucket: 'none' as const, seed: 42 };
    const a = selectSeeds(corpus, options);
    expect(a.strata).toEqual([
      { bucket: 'api', chunks: 10, seeds: 2 },
      { bucket: 'faq', chunks: 30, seeds: 5 },
      { bucket: 'legal', chunks: 1, seeds: 1 },
    ]);
    const b = selectSeeds([...corpus, chunk('faq-new', { metadata: { section: 'faq' } })], options);
    expect(b.seeds.filter((c) => c.id.startsWith('api')).map((c) => c.id)).toEqual(
      a.seeds.filter((c) => c.id.startsWith('api')).map((c) => c.id),
    );
    expect(selectSeeds(corpus, { ...options, seed: 7 }).seeds).not.toEqual(a.seeds);
    expect(drawOrder(['x', 'y', 'z'], (s) => s, 1)).toEqual(drawOrder(['z', 'y', 'x'], (s) => s, 1));
  });
});

describe('related chunks (multi-hop)', () => {
  it('takes neighbours in the document, else chunks sharing two rarer entities', () => {
    const doc = [0, 1, 2, 3].map((p) => chunk(`d${p}`, { document: 'guide.md', position: p }));
    const lone = [
      chunk('x', { text: 'The Relay R2 module connects the OpenTherm boiler to the Hub.' }),
      chunk('y', { text: 'Installing the Relay R2 needs an OpenTherm boiler and a neutral wire.' }),
      chunk('z', { text: 'Returns are accepted within thirty days of delivery, with the OpenTherm manual.' }),
    ];
    // 37 chunks: OpenTherm in 3 of them stays under the document-frequency ceiling (10 %).
    const index = relatedIndex([...doc, ...lone, ...Array.from({ length: 30 }, (_, i) => chunk(`f${i}`))]);
    expect(relatedChunks(index, doc[1]!, 2).map((c) => c.id)).toEqual(['d2']);
    expect(relatedChunks(index, doc[3]!, 3).map((c) => c.id)).toEqual(['d1', 'd2']);
    expect(relatedChunks(index, lone[0]!, 2).map((c) => c.id)).toEqual(['y']);
    expect(relatedChunks(index, lone[2]!, 2)).toEqual([]);
    expect([...entitiesOf('The Lumora Hub speaks Zigbee 3.0 and costs 149 €. Its IP65 case is sealed.')]).toEqual([
      'lumora hub',
      'zigbee',
      'ip65',
    ]);
  });
});

describe('the build plan', () => {
  const settings = configSchema.parse({ golden: { seeds: { min: 12 } } }).golden;
  const corpus = [
    ...Array.from({ length: 8 }, (_, i) =>
      chunk(`doc-a-${i}`, { document: 'a.md', position: i, metadata: { section: 'a' } }),
    ),
    ...Array.from({ length: 8 }, (_, i) => chunk(`solo-${i}`, { metadata: { section: 'b' } })),
  ];
  const input = { chunks: corpus, settings, candidatesDataset: 'c', generatorModel: 'm', personalData: noPersonalData };

  it('splits the seeds over the strata by the mix; multi-hop only where a related chunk exists', () => {
    expect(strataCounts(12, settings.mix)).toEqual({ 'single-hop': 6, 'multi-hop': 3, adversarial: 3 });
    expect(strataCounts(2, settings.mix)).toEqual({ 'single-hop': 1, 'multi-hop': 0, adversarial: 1 });
    const plan = planBuild(input);
    expect(plan.seeds).toHaveLength(12);
    // Drawn seed by seed from each chunk: near the mix, within the tolerance the plan states (the seeds drawn for
    // multi-hop without a related chunk, half of this corpus, went to the other strata).
    const drawnMulti = (plan.byStratum['multi-hop'] + plan.multiHopWithoutNeighbours) / 12;
    expect(Math.abs(drawnMulti - 0.25)).toBeLessThanOrEqual(plan.mixTolerance['multi-hop']);
    expect(plan.byStratum['single-hop'] + plan.byStratum['multi-hop'] + plan.byStratum.adversarial).toBe(12);
    for (const seed of plan.seeds.filter((s) => s.stratum === 'multi-hop')) {
      expect(seed.chunks).toHaveLength(2);
      expect(seed.chunks.every((c) => c.document === 'a.md')).toBe(true);
    }
    expect(plan.questions).toBe(24);
  });

  it('is deterministic, and its keys follow what shapes the generation', () => {
    const a = planBuild(input);
    expect(planBuild(input).seeds.map((s) => s.key)).toEqual(a.seeds.map((s) => s.key));
    expect(planBuild({ ...input, generatorModel: 'other' }).hash).not.toBe(a.hash);
    expect(planBuild({ ...input, candidatesDataset: 'other' }).hash).not.toBe(a.hash);
    expect(planBuild({ ...input, settings: { ...settings, questionsPerSeed: 3 } }).hash).not.toBe(a.hash);
  });
});
