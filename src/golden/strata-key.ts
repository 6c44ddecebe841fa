import { DOCUMENT_KEYS, ID_KEYS, POSITION_KEYS, TEXT_KEYS } from './corpus.js';
import { bucketOf, type DateBucket } from './seeds.js';
import type { Chunk } from './types.js';

/**
 * `golden.seeds.strataKey: auto`: the chunk metadata key the seeds are stratified over, chosen from the corpus.
 * A key qualifies when it has between 2 and 50 values, covers at least 80 % of the eligible chunks and has at
 * least 3 chunks per value on average (a key unique per chunk, as `section` is in many exports, stratifies
 * nothing). Keys of the corpus's structure are not considered: ids, text, the document, the position, the path,
 * the title (a document's) and the language (a property of every chunk, not a topic). Among those that qualify,
 * the one carrying most information wins: coverage × entropy of its values (in bits), ties by name. Pure.
 */

export const AUTO_STRATA = { minValues: 2, maxValues: 50, minCoverage: 0.8, minChunksPerValue: 3 } as const;

const STRUCTURE = new Set(
  [...ID_KEYS, ...TEXT_KEYS, ...DOCUMENT_KEYS, ...POSITION_KEYS, 'path', 'title', 'language', 'lang'].map((k) =>
    k.toLowerCase(),
  ),
);

export interface StrataKeyChoice {
  /** The key, or null when none qualifies (then every chunk is one stratum). */
  key: string | null;
  /** Distinct values of the key among the eligible chunks. */
  values: number;
  /** Share of the eligible chunks that carry the key. */
  coverage: number;
}

export function chooseStrataKey(eligible: readonly Chunk[], dateBucket: DateBucket): StrataKeyChoice {
  const keys = new Set<string>();
  for (const c of eligible) for (const k of Object.keys(c.metadata)) if (!STRUCTURE.has(k.toLowerCase())) keys.add(k);
  let best: (StrataKeyChoice & { score: number }) | null = null;
  for (const key of [...keys].sort()) {
    const counts = new Map<string, number>();
    for (const c of eligible) {
      const b = bucketOf(c, key, dateBucket);
      if (b !== '(none)') counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    const covered = [...counts.values()].reduce((s, n) => s + n, 0);
    const coverage = eligible.length === 0 ? 0 : covered / eligible.length;
    const values = counts.size;
    if (values < AUTO_STRATA.minValues || values > AUTO_STRATA.maxValues) continue;
    if (coverage < AUTO_STRATA.minCoverage || covered / values < AUTO_STRATA.minChunksPerValue) continue;
    const entropy = -[...counts.values()].reduce((s, n) => s + (n / covered) * Math.log2(n / covered), 0);
    const score = coverage * entropy;
    if (!best || score > best.score + 1e-12) best = { key, values, coverage, score };
  }
  return best ? { key: best.key, values: best.values, coverage: best.coverage } : { key: null, values: 0, coverage: 0 };
}
