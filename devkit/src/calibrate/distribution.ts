/**
 * Discrete score distributions for simulations: what a judge's scores look like across traces, exactly (the
 * support and its probabilities), so a simulation can draw from it and a test can compute what it planted.
 */
import type { Rng } from '../corpus/random.js';

export interface ScoreMass {
  value: number;
  p: number;
}

export interface ScoreDistribution {
  /** Distinct values in ascending order with their probabilities (summing to 1). */
  masses: readonly ScoreMass[];
  draw(rng: Rng): number;
}

/** A distribution over the given values (repeats merged); weights need not sum to 1. */
export function discreteDistribution(entries: readonly ScoreMass[]): ScoreDistribution {
  const merged = new Map<number, number>();
  for (const { value, p } of entries) {
    if (!(value >= 0 && value <= 1) || !(p >= 0)) throw new RangeError(`bad mass ${value}: ${p}`);
    if (p > 0) merged.set(value, (merged.get(value) ?? 0) + p);
  }
  const total = [...merged.values()].reduce((s, p) => s + p, 0);
  if (!(total > 0)) throw new RangeError('a distribution needs some mass');
  const masses = [...merged].sort(([a], [b]) => a - b).map(([value, p]) => ({ value, p: p / total }));
  let sum = 0;
  const cumulative = masses.map((m) => (sum += m.p));
  return {
    masses,
    draw(rng) {
      const u = rng.next();
      const i = cumulative.findIndex((c) => u < c);
      return (masses[i === -1 ? masses.length - 1 : i] as ScoreMass).value;
    },
  };
}

/**
 * Faithfulness as a judge reports it on a RAG service in fair health: an answer has 1–6 claims (equally
 * likely); `allSupported` of the answers have every claim supported, the others each claim with probability
 * `claimSupport`. The score is supported / claims, so it ties a lot (1.0 above all). At the defaults about
 * 70 % of the answers reach a 0.85 gate.
 */
export function faithfulnessLike(allSupported = 0.6, claimSupport = 0.6): ScoreDistribution {
  const entries: ScoreMass[] = [];
  for (let m = 1; m <= 6; m++) {
    for (let k = 0; k <= m; k++) {
      const binomial = choose(m, k) * claimSupport ** k * (1 - claimSupport) ** (m - k);
      entries.push({ value: k / m, p: (1 / 6) * ((k === m ? allSupported : 0) + (1 - allSupported) * binomial) });
    }
  }
  return discreteDistribution(entries);
}

/** A continuous-looking score (answer relevancy's cosine similarities) on a 0.01 grid: a clipped normal. */
export function similarityLike(mean = 0.78, sd = 0.14): ScoreDistribution {
  const entries: ScoreMass[] = [];
  for (let i = 0; i <= 100; i++) {
    const v = i / 100;
    entries.push({ value: v, p: Math.exp(-(((v - mean) / sd) ** 2) / 2) });
  }
  return discreteDistribution(entries);
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
