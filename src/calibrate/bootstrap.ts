/**
 * Seeded percentile bootstrap over pairs: resample the n pairs with replacement `resamples` times, evaluate
 * the estimator on each resample, and take the (1 − level)/2 and (1 + level)/2 quantiles of what came out.
 *
 * Why the percentile interval: every figure here is bounded (ρ, τ and κ in [−1, 1], the mean absolute error
 * in [0, 1]) and the percentile interval stays inside the bounds and follows any monotone transform (Fisher's
 * z for ρ, say) without being told about it; the normal-theory intervals of κ and τ need large n and balanced
 * classes that a week of annotations rarely has. BCa would correct bias and skew better but needs a jackknife
 * (n more evaluations per figure and cell); the coverage measured on planted agreements (bench/calibrate.ts)
 * is what justifies staying with the plain percentile interval. The weekly experiment's intervals are
 * percentile intervals too.
 *
 * Why 2000 resamples by default: the Monte Carlo error of an endpoint is that of a 2.5 % quantile estimated
 * from B draws, √(0.025·0.975/B) in probability — 0.35 % at B = 2000, about 0.06 standard errors of the
 * figure — small beside the sampling error the interval is about, at a cost of milliseconds per cell.
 *
 * Resamples on which a figure is not estimable (a resample of a small cell can hold one class only) are set
 * aside. They are the extreme resamples, so when more than 5 % of them are set aside — more than the tail
 * the interval cuts at — the interval is withheld with the reason rather than computed from the rest.
 *
 * Every figure of a cell is evaluated on the same resamples (one draw of indices, several estimators).
 */
import { quantile } from '../quantile.js';
import { seededRandom } from '../random.js';
import { notEstimable, type NotEstimable, type PairEstimator } from './estimate.js';

export interface BootstrapOptions {
  /** Resamples drawn (default 2000). */
  resamples: number;
  /** Seed of the resampling; the same seed and data give the same interval. */
  seed: number;
  /** Two-sided confidence level (default 0.95). */
  level: number;
}

export const DEFAULT_BOOTSTRAP: Readonly<BootstrapOptions> = { resamples: 2000, seed: 42, level: 0.95 };

/** Above this share of resamples set aside, no interval is given. */
export const MAX_SET_ASIDE_SHARE = 0.05;

export interface BootstrapInterval {
  level: number;
  low: number;
  high: number;
  width: number;
  /** Resamples drawn, and how many of them the figure could be estimated on. */
  resamples: number;
  estimableResamples: number;
  seed: number;
}

export interface BootstrapTarget {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  estimator: PairEstimator;
}

export function bootstrapProblems(options: BootstrapOptions): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(options.resamples) || options.resamples < 100) {
    problems.push(`resamples must be an integer of at least 100 (got ${options.resamples})`);
  }
  if (!Number.isInteger(options.seed)) problems.push(`seed must be an integer (got ${options.seed})`);
  if (!(options.level > 0 && options.level < 1)) problems.push(`level must be in (0, 1) (got ${options.level})`);
  return problems;
}

/**
 * Percentile intervals of several figures over the same n pairs, one per target, each evaluated on the same
 * resamples. Below two pairs every interval is not estimable.
 */
export function bootstrapIntervals(
  n: number,
  targets: readonly BootstrapTarget[],
  options: BootstrapOptions,
): Array<BootstrapInterval | NotEstimable> {
  const problems = bootstrapProblems(options);
  if (problems.length > 0) throw new RangeError(`bootstrap: ${problems.join('; ')}`);
  if (n < 2) return targets.map(() => notEstimable('no interval from fewer than 2 pairs'));
  const random = seededRandom(options.seed);
  const index = new Uint32Array(n);
  // A target whose two columns are one (a mean of one column) is copied once per resample.
  const buffers = targets.map((t) => {
    const x = new Float64Array(n);
    return { x, y: t.y === t.x ? x : new Float64Array(n), single: t.y === t.x };
  });
  const values = targets.map(() => new Float64Array(options.resamples));
  const kept = targets.map(() => 0);
  for (let b = 0; b < options.resamples; b++) {
    for (let i = 0; i < n; i++) index[i] = Math.floor(random() * n);
    targets.forEach((target, t) => {
      const buffer = buffers[t]!;
      if (buffer.single) for (let i = 0; i < n; i++) buffer.x[i] = target.x[index[i] as number] as number;
      else {
        for (let i = 0; i < n; i++) {
          const k = index[i] as number;
          buffer.x[i] = target.x[k] as number;
          buffer.y[i] = target.y[k] as number;
        }
      }
      const estimate = target.estimator(buffer.x, buffer.y, n);
      if (estimate.estimable) values[t]![kept[t]!++] = estimate.value;
    });
  }
  return targets.map((_, t) => percentile(values[t]!.subarray(0, kept[t]!), options));
}

function percentile(estimates: Float64Array, options: BootstrapOptions): BootstrapInterval | NotEstimable {
  const setAside = options.resamples - estimates.length;
  if (setAside > MAX_SET_ASIDE_SHARE * options.resamples) {
    const share = Math.round((100 * setAside) / options.resamples);
    return notEstimable(
      `${share} % of the resamples could not be estimated (too little variation in the pairs): no interval`,
    );
  }
  estimates.sort();
  const alpha = (1 - options.level) / 2;
  const low = quantile(estimates, alpha);
  const high = quantile(estimates, 1 - alpha);
  return {
    level: options.level,
    low,
    high,
    width: high - low,
    resamples: options.resamples,
    estimableResamples: estimates.length,
    seed: options.seed,
  };
}

/**
 * A seed for one part of a computation (a table cell, a metric) from the run's seed and the part's key
 * (FNV-1a of both), so adding a cell never changes another cell's resamples.
 */
export function derivedSeed(seed: number, key: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of `${seed}\u0000${key}`) {
    const code = ch.codePointAt(0) as number;
    hash = Math.imul(hash ^ (code & 0xffff), 0x01000193);
    hash = Math.imul(hash ^ (code >>> 16), 0x01000193);
  }
  return hash >>> 0;
}
