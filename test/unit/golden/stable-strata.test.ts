import { describe, expect, it } from 'vitest';
import { planBuild } from '../../../src/golden/plan.js';
import type { Chunk } from '../../../src/golden/types.js';
import { configSchema } from '../../helpers/config.js';

/** Issue 30, part 1: a seed's stratum follows from its chunk and the configuration, not from the order of a draw. */

const chunk = (id: string, doc: string, position: number): Chunk => ({
  id,
  text: `Chunk ${id} of ${doc} explains one more setting of the product in enough words to be a seed. `.repeat(3),
  language: 'en',
  document: doc,
  position,
  metadata: { category: doc.split('-')[0] },
});
const corpus = (docs: string[]) => docs.flatMap((d) => [0, 1, 2, 3].map((p) => chunk(`${d}#${p}`, d, p)));
const noPersonalData = { found: () => false, redact: (t: string) => t };

describe('stable strata', () => {
  const settings = configSchema.parse({ golden: { seeds: { min: 40 } } }).golden;
  const input = { settings, candidatesDataset: 'c', generatorModel: 'm', personalData: noPersonalData };
  const v1Docs = Array.from({ length: 15 }, (_, i) => `${['setup', 'billing', 'privacy'][i % 3]}-${i}`);

  it('a chunk seeding both versions keeps its stratum when other documents are added', () => {
    const v1 = planBuild({ ...input, chunks: corpus(v1Docs) });
    const v2 = planBuild({ ...input, chunks: corpus([...v1Docs, 'setup-new-a', 'billing-new-b', 'privacy-new-c']) });
    const before = new Map(v1.seeds.map((s) => [s.chunks[0]!.id, s.stratum]));
    const both = v2.seeds.filter((s) => before.has(s.chunks[0]!.id));
    expect(both.length).toBeGreaterThan(30);
    const moved = both.filter((s) => before.get(s.chunks[0]!.id) !== s.stratum).map((s) => s.chunks[0]!.id);
    expect(moved).toEqual([]);
  });

  it('the drawn mix stays near golden.mix, within the tolerance the plan states', () => {
    const plan = planBuild({ ...input, chunks: corpus(v1Docs) });
    const n = plan.seeds.length;
    for (const [stratum, share] of Object.entries(settings.mix)) {
      const got = plan.byStratum[stratum as keyof typeof plan.byStratum] / n;
      expect(Math.abs(got - share)).toBeLessThanOrEqual(plan.mixTolerance[stratum as keyof typeof plan.mixTolerance]);
    }
  });
});
