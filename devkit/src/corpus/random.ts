import { createHash } from 'node:crypto';

/** A small seeded PRNG (sfc32) so the demo corpus is reproducible byte for byte from its seed. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Integer in [min, max] inclusive. */
  between(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** An independent stream derived from this seed and a label, so adding draws in one place never shifts another. */
  fork(label: string): Rng;
}

export function createRng(seed: number | string): Rng {
  const digest = createHash('sha256').update(String(seed)).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as (typeof out)[number], out[i] as (typeof out)[number]];
      }
      return out;
    },
    fork: (label) => createRng(`${String(seed)}/${label}`),
  };
  return rng;
}

/** Deterministic hex id of the given length from any parts (trace ids are 32, span ids 16). */
export function hexId(length: number, ...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
}

/** Deterministic RFC 4122 v4-shaped UUID from any parts. */
export function uuidFrom(...parts: Array<string | number>): string {
  const h = hexId(32, ...parts).split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * Splits `total` into integer counts proportional to `weights` (largest remainder), so small totals
 * still get every bucket whose share rounds to at least one.
 */
export function apportion<K extends string>(total: number, weights: Record<K, number>): Record<K, number> {
  const keys = Object.keys(weights) as K[];
  const sum = keys.reduce((s, k) => s + weights[k], 0);
  const exact = keys.map((k) => ({ k, v: (total * weights[k]) / sum }));
  const counts = Object.fromEntries(exact.map(({ k, v }) => [k, Math.floor(v)])) as Record<K, number>;
  let left = total - keys.reduce((s, k) => s + counts[k], 0);
  const byRemainder = [...exact].sort((x, y) => y.v - Math.floor(y.v) - (x.v - Math.floor(x.v)));
  for (const { k } of byRemainder) {
    if (left <= 0) break;
    counts[k] += 1;
    left -= 1;
  }
  return counts;
}
