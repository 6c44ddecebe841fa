/** Small numeric helpers shared by the metrics. None of them ever returns NaN. */

/** Clamps to [0, 1]; anything that is not a finite number becomes `undefined` so callers must decide. */
export function unitInterval(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  return Math.min(1, Math.max(0, value));
}

/** Mean of the values, or `undefined` for an empty list. */
export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Share of `true` among the flags, or `undefined` for an empty list. */
export function fraction(flags: readonly boolean[]): number | undefined {
  return mean(flags.map((f) => (f ? 1 : 0)));
}

/**
 * RAGAS average precision over usefulness verdicts in retrieval order:
 * Σ_k (precision@k · v_k) / Σ_k v_k, and 0 when no chunk is useful (RAGAS divides by Σ v_k + 1e-10, which
 * gives 0 there too; the epsilon is left out so exact fractions stay exact).
 */
export function averagePrecision(verdicts: readonly boolean[]): number {
  let useful = 0;
  let numerator = 0;
  verdicts.forEach((v, i) => {
    if (!v) return;
    useful += 1;
    numerator += useful / (i + 1);
  });
  return useful === 0 ? 0 : numerator / useful;
}

/**
 * Cosine similarity; 0 when either vector has no length. Each vector is scaled by its largest component first,
 * so components near the ends of the float range (1e300, subnormals) neither overflow nor vanish.
 * Vectors of different dimension are a caller error.
 */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`vectors of different dimension (${a.length} and ${b.length})`);
  const sa = largest(a);
  const sb = largest(b);
  if (sa === 0 || sb === 0 || !Number.isFinite(sa) || !Number.isFinite(sb)) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = (a[i] ?? 0) / sa;
    const y = (b[i] ?? 0) / sb;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  const c = dot / (Math.sqrt(na) * Math.sqrt(nb));
  return Number.isFinite(c) ? Math.min(1, Math.max(-1, c)) : 0;
}

function largest(v: readonly number[]): number {
  let m = 0;
  for (const x of v) {
    const ax = Math.abs(x);
    if (ax > m || Number.isNaN(ax)) m = ax;
  }
  return m;
}
