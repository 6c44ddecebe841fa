/**
 * Ordering helpers for the rank statistics, fast on the bootstrap's hot path.
 *
 * ρ and τ depend on the order of the values only, so the agreement module replaces each column by its dense
 * codes (0 for the smallest distinct value, 1 for the next, …) once; a resample of codes is then ranked and
 * ordered with counting sorts in O(n + distinct values) instead of comparison sorts.
 */

/** Dense codes of a column: the index of each value among its distinct values in ascending order. */
export function denseCodes(values: ArrayLike<number>, n: number = values.length): Float64Array {
  const distinct = Float64Array.from(new Set(Array.prototype.slice.call(values, 0, n) as number[])).sort();
  const code = new Map<number, number>();
  distinct.forEach((v, i) => code.set(v, i));
  return Float64Array.from({ length: n }, (_, i) => code.get(values[i] as number) as number);
}

/** The number of counting-sort slots the values need (max + 1) when they are small non-negative integers, else 0. */
export function codeRange(values: ArrayLike<number>, n: number): number {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (!(v >= 0 && Number.isInteger(v))) return 0;
    if (v > max) max = v;
  }
  return max < 4 * n + 16 ? max + 1 : 0;
}

/**
 * Average ranks (1-based; tied values share the mean of the ranks they span), as Spearman's ρ needs them:
 * [0.5, 1, 1, 0] ranks as [2, 3.5, 3.5, 1]. Reads the first `n` values.
 */
export function averageRanks(values: ArrayLike<number>, n: number = values.length): Float64Array {
  const ranks = new Float64Array(n);
  const range = codeRange(values, n);
  if (range > 0) {
    const counts = new Float64Array(range);
    for (let i = 0; i < n; i++) counts[values[i] as number]! += 1;
    // A code whose values fill positions start..end-1 ranks (start + 1 + end) / 2.
    let start = 0;
    for (let c = 0; c < range; c++) {
      const end = start + (counts[c] as number);
      counts[c] = (start + 1 + end) / 2;
      start = end;
    }
    for (let i = 0; i < n; i++) ranks[i] = counts[values[i] as number] as number;
    return ranks;
  }
  const order = ascendingOrder(values, n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    const value = values[order[start] as number] as number;
    while (end < n && values[order[end] as number] === value) end++;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k] as number] = rank;
    start = end;
  }
  return ranks;
}

/** Indices of the first n values in ascending value order (stable). */
export function ascendingOrder(values: ArrayLike<number>, n: number, within?: Uint32Array): Uint32Array {
  const from = within ?? identity(n);
  const range = codeRange(values, n);
  if (range === 0) return from.slice().sort((a, b) => (values[a] as number) - (values[b] as number));
  const starts = new Uint32Array(range + 1);
  for (let i = 0; i < n; i++) starts[(values[i] as number) + 1]! += 1;
  for (let c = 0; c < range; c++) starts[c + 1]! += starts[c] as number;
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const i = from[k] as number;
    out[starts[values[i] as number]!++] = i;
  }
  return out;
}

export function identity(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}
