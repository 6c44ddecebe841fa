import { drawOrder } from './ids.js';
import type { Split, Stratum } from './types.js';

/**
 * dev/test, stratified and seeded: in each stratum `testShare` of the items are test. An item keeps the split it
 * had in any earlier version (a test item never becomes dev, a dev item never becomes test); only new items are
 * drawn, so each stratum's test share moves towards the target as the set grows.
 */
export function assignSplits(
  items: ReadonlyArray<{ id: string; stratum: Stratum }>,
  previous: ReadonlyMap<string, Split>,
  testShare: number,
  seed: number,
): Map<string, Split> {
  const out = new Map<string, Split>();
  for (const stratum of ['single-hop', 'multi-hop', 'adversarial'] as const) {
    const pool = items.filter((i) => i.stratum === stratum);
    const kept = pool.filter((i) => previous.has(i.id));
    for (const i of kept) out.set(i.id, previous.get(i.id)!);
    const target = Math.round(testShare * pool.length);
    const need = Math.max(0, target - kept.filter((i) => previous.get(i.id) === 'test').length);
    const fresh = drawOrder(
      pool.filter((i) => !previous.has(i.id)),
      (i) => i.id,
      'ragwatch-golden-split',
      seed,
      stratum,
    );
    fresh.forEach((i, n) => out.set(i.id, n < need ? 'test' : 'dev'));
  }
  return out;
}

/** Splits items had in earlier versions; an item once test stays test even if a later version said otherwise. */
export function earlierSplits(
  versions: ReadonlyArray<ReadonlyArray<{ goldenId: string; split: string }>>,
): Map<string, Split> {
  const out = new Map<string, Split>();
  for (const items of versions) {
    for (const item of items) {
      if (item.split !== 'dev' && item.split !== 'test') continue;
      if (out.get(item.goldenId) === 'test') continue;
      out.set(item.goldenId, item.split);
    }
  }
  return out;
}
