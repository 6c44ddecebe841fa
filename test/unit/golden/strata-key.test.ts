import { describe, expect, it } from 'vitest';
import { planBuild } from '../../../src/golden/plan.js';
import { selectSeeds } from '../../../src/golden/seeds.js';
import { chooseStrataKey } from '../../../src/golden/strata-key.js';
import type { Chunk } from '../../../src/golden/types.js';
import { configSchema } from '../../helpers/config.js';

/** Issue 30, part 5: the sampling key chosen from the corpus, and a minimum of seeds per stratum. */

const chunk = (id: string, metadata: Record<string, unknown>, extra: Partial<Chunk> = {}): Chunk => ({
  id,
  text: `Chunk ${id} says something long enough to be a seed about the product and its settings. `.repeat(4),
  language: 'en',
  document: null,
  position: 0,
  metadata,
  ...extra,
});
const noPersonalData = { found: () => false, redact: (t: string) => t };

/** 90 chunks as many exports give them: `section` unique per chunk, a category of 6 values, a language and a path. */
const corpus = Array.from({ length: 90 }, (_, i) =>
  chunk(`c${i}`, {
    section: `Section ${i}`,
    category: ['billing', 'setup', 'privacy', 'returns', 'devices', 'account'][i % 6],
    language: i % 2 ? 'en' : 'es',
    path: `docs/${Math.floor(i / 3)}.md`,
    title: `Title ${Math.floor(i / 3)}`,
    tier: i < 85 ? 'basic' : 'pro',
  }),
);

describe('golden.seeds.strataKey: auto', () => {
  it('is the default', () => {
    expect(configSchema.parse({}).golden.seeds.strataKey).toBe('auto');
    expect(configSchema.parse({}).golden.seeds.minPerStratum).toBe(1);
  });

  it('picks the key with 2 to 50 values covering most chunks, not one unique per chunk nor the language or document', () => {
    const choice = chooseStrataKey(corpus, 'none');
    expect(choice.key).toBe('category');
    expect(choice.values).toBe(6);
    expect(choice.coverage).toBe(1);
  });

  it('prefers the key that spreads the chunks over more values at the same coverage', () => {
    const twoKeys = corpus.map((c, i) => ({ ...c, metadata: { ...c.metadata, region: i % 2 ? 'north' : 'south' } }));
    expect(chooseStrataKey(twoKeys, 'none').key).toBe('category');
  });

  it('a key most chunks lack does not count; with no suitable key there is no stratification', () => {
    const sparse = corpus.map((c, i) => chunk(c.id, { section: `S${i}`, ...(i < 30 ? { kind: i % 3 } : {}) }));
    expect(chooseStrataKey(sparse, 'none')).toMatchObject({ key: null });
  });

  it('the plan says which key it chose, and with none every chunk is one stratum', () => {
    const settings = configSchema.parse({ golden: { seeds: { min: 12 } } }).golden;
    const input = { settings, candidatesDataset: 'c', generatorModel: 'm', personalData: noPersonalData };
    const plan = planBuild({ ...input, chunks: corpus });
    expect(plan.strataKey).toMatchObject({ key: 'category', auto: true, values: 6 });
    expect(plan.strata.map((r) => r.bucket)).toEqual(['account', 'billing', 'devices', 'privacy', 'returns', 'setup']);
    expect(plan.seeds.map((s) => s.bucket).sort()).toEqual(
      plan.seeds.map((s) => s.chunks[0]!.metadata.category).sort(),
    );

    const flat = planBuild({ ...input, chunks: corpus.map((c, i) => chunk(c.id, { section: `S${i}` })) });
    expect(flat.strataKey).toMatchObject({ key: null, auto: true });
    expect(flat.strata).toEqual([{ bucket: '(all)', chunks: 90, seeds: 12 }]);

    const fixed = planBuild({
      ...input,
      chunks: corpus,
      settings: { ...settings, seeds: { ...settings.seeds, strataKey: 'tier' } },
    });
    expect(fixed.strataKey).toMatchObject({ key: 'tier', auto: false });
  });
});

describe('golden.seeds.minPerStratum', () => {
  const sized = [
    ...Array.from({ length: 40 }, (_, i) => chunk(`a${i}`, { k: 'a' })),
    ...Array.from({ length: 3 }, (_, i) => chunk(`b${i}`, { k: 'b' })),
    chunk('c0', { k: 'c' }),
  ];
  const options = { count: 5, strataKey: 'k', dateBucket: 'none' as const, seed: 42 };

  it('gives every stratum at least that many seeds (all its chunks when it has fewer), the rest in proportion', () => {
    const got = selectSeeds(sized, { ...options, minPerStratum: 2, max: 1000 });
    expect(got.strata).toEqual([
      { bucket: 'a', chunks: 40, seeds: 2 },
      { bucket: 'b', chunks: 3, seeds: 2 },
      { bucket: 'c', chunks: 1, seeds: 1 },
    ]);
  });

  it('lifts the count when the strata need more seeds, never past max', () => {
    const many = Array.from({ length: 60 }, (_, i) => chunk(`m${i}`, { k: `v${i % 20}` }));
    expect(selectSeeds(many, { ...options, minPerStratum: 2, max: 1000 }).seeds).toHaveLength(40);
    const capped = selectSeeds(many, { ...options, minPerStratum: 2, max: 30 });
    expect(capped.seeds).toHaveLength(30);
    for (const r of capped.strata) expect(r.seeds).toBeGreaterThanOrEqual(1);
  });
});
