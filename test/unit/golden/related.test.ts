import { describe, expect, it } from 'vitest';
import { planBuild } from '../../../src/golden/plan.js';
import { DF_CEILING, relatedChunks, relatedIndex } from '../../../src/golden/related.js';
import type { Chunk } from '../../../src/golden/types.js';
import { configSchema } from '../../helpers/config.js';

/** Issue 30, part 2: multi-hop partners by document structure, then by rare shared entities; none rather than unrelated. */

const chunk = (id: string, text: string, extra: Partial<Chunk> = {}): Chunk => ({
  id,
  text,
  language: 'en',
  document: null,
  position: 0,
  metadata: {},
  ...extra,
});
const filler = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    chunk(`filler-${i}`, `Filler page number ${i} talks about nothing in particular at some length.`, {
      document: `filler-${i}.md`,
    }),
  );

describe('multi-hop partners', () => {
  it('documents the ceiling: an entity in more than 10 % of the chunks relates nothing', () => {
    expect(DF_CEILING).toBe(0.1);
  });

  it('a name in more than a tenth of the corpus does not pair chunks of different documents', () => {
    // "Lumora Hub" and "Zigbee" are in 5 of 30 chunks (17 %): the product's own vocabulary, not a relation.
    const common = Array.from({ length: 3 }, (_, i) =>
      chunk(`common-${i}`, `The Lumora Hub pairs over Zigbee in page ${i}.`, { document: `c${i}.md` }),
    );
    const seed = chunk('privacy', 'Your data: the Lumora Hub keeps Zigbee logs for 30 days under GDPR.', {
      document: 'privacy.md',
    });
    const billing = chunk('billing', 'Invoices list the Lumora Hub and every Zigbee sensor you rent.', {
      document: 'billing.md',
    });
    const index = relatedIndex([seed, billing, ...common, ...filler(25)]);
    expect(relatedChunks(index, seed, 2)).toEqual([]);
  });

  it('one name read twice (a name and the code inside it) is one shared entity, not two', () => {
    const seed = chunk('a', 'Mounting: the Relay R2 needs a neutral wire.', { document: 'a.md' });
    const other = chunk('b', 'Pricing of the Relay R2 in shops.', { document: 'b.md' });
    const index = relatedIndex([seed, other, ...filler(20)]);
    expect(relatedChunks(index, seed, 2)).toEqual([]);
  });

  it('ranks partners by the rarity of what they share, not by id', () => {
    const seed = chunk(
      'seed',
      'The Relay R2 talks to the OpenTherm boiler and the Bosch Condens valve of the EcoVent duct.',
    );
    // Rarer: Bosch Condens and EcoVent only here.
    const rare = chunk('z-rare', 'Fitting a Bosch Condens boiler next to an EcoVent duct.');
    // Less rare: Relay R2 and OpenTherm in 4 chunks each (of 45: under the ceiling).
    const often = [0, 1, 2].map((i) => chunk(`a-often-${i}`, `Setup ${i}: the Relay R2 drives an OpenTherm boiler.`));
    const index = relatedIndex([seed, rare, ...often, ...filler(40)]);
    expect(relatedChunks(index, seed, 2).map((c) => c.id)).toEqual(['z-rare']);
  });

  it('the document comes first: neighbours in reading order', () => {
    const doc = [0, 1, 2, 3].map((p) =>
      chunk(`d${p}`, `Part ${p} of the guide.`, { document: 'guide.md', position: p }),
    );
    const index = relatedIndex([...doc, ...filler(10)]);
    expect(relatedChunks(index, doc[0]!, 2).map((c) => c.id)).toEqual(['d1']);
    expect(relatedChunks(index, doc[3]!, 3).map((c) => c.id)).toEqual(['d1', 'd2']);
  });

  it('the plan counts the seeds that found no partner', () => {
    const settings = configSchema.parse({ golden: { seeds: { min: 10, minChars: 0 } } }).golden;
    const lone = filler(10);
    const plan = planBuild({
      chunks: lone,
      settings,
      candidatesDataset: 'c',
      generatorModel: 'm',
      personalData: { found: () => false, redact: (t: string) => t },
    });
    expect(plan.seeds).toHaveLength(10);
    expect(plan.withoutPartner).toBe(10);
    expect(plan.byStratum['multi-hop']).toBe(0);
  });
});
