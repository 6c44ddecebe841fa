import { createHash } from 'node:crypto';
import { seededRandom } from '../random.js';

/**
 * Controlled noise for the noise run: `count` chunks drawn from the contexts other items retrieved in the clean
 * run, never one of the item's own. The draw depends only on the seed, the item ID and the pool (kept in item
 * ID order), so the same inputs give the same distractors whatever the concurrency.
 */
export function pickDistractors(
  itemId: string,
  ownContexts: readonly string[],
  pool: ReadonlyArray<{ itemId: string; contexts: readonly string[] }>,
  count: number,
  seed: number,
): string[] {
  const own = new Set(ownContexts.map(normalize));
  const seen = new Set<string>();
  const candidates: string[] = [];
  for (const entry of [...pool].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0))) {
    if (entry.itemId === itemId) continue;
    for (const chunk of entry.contexts) {
      const key = normalize(chunk);
      if (!key || own.has(key) || seen.has(key)) continue;
      seen.add(key);
      candidates.push(chunk);
    }
  }
  const random = seededRandom(seedFor(seed, itemId));
  const picked: string[] = [];
  for (let i = 0; i < count && candidates.length > 0; i++) {
    const at = Math.floor(random() * candidates.length);
    picked.push(candidates.splice(at, 1)[0] as string);
  }
  return picked;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function seedFor(seed: number, itemId: string): number {
  return createHash('sha256').update(`${seed}\0${itemId}`).digest().readUInt32BE(0);
}
