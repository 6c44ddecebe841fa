/**
 * Intervals for a share of n observations.
 *
 * Why Wilson's score interval: its coverage stays close to the level from n = 1 up, it never leaves [0, 1], and
 * it keeps a width at 0/n and n/n (0/14 at 95 % gives [0, 0.215]: fourteen adversarial items never abstained on
 * do not prove the service never abstains), where the Wald interval and a bootstrap of identical values collapse
 * to a point. Clopper–Pearson is wider than it needs to be for a figure read every week; the unseen share
 * bound below uses its 0/n case, where it has a closed form.
 */
import { criticalZ } from './normal.js';

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson's score interval for a share `p` of `n` observations. `p` may be fractional: the mean of n values
 * in [0, 1] (see mean-interval.ts). n must be at least 1.
 */
export function wilsonInterval(p: number, n: number, level = 0.95): Interval {
  if (!(n >= 1)) throw new RangeError(`wilsonInterval: n must be at least 1 (got ${n})`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`wilsonInterval: the share must be in [0, 1] (got ${p})`);
  const z = criticalZ(level);
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p = 0 or 1 one endpoint is exactly the bound; rounding must not move it inside.
  return {
    low: p === 0 ? 0 : Math.max(0, centre - half),
    high: p === 1 ? 1 : Math.min(1, centre + half),
  };
}

/** Wilson's interval of `k` successes in `n` trials. */
export function proportionInterval(k: number, n: number, level = 0.95): Interval {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n) {
    throw new RangeError(`proportionInterval: need integers 0 ≤ k ≤ n (got ${k}/${n})`);
  }
  return wilsonInterval(k / n, n, level);
}

/**
 * The largest share of a population that n draws can all have missed, at the level (one-sided at
 * (1 + level)/2, as either end of a two-sided interval): 1 − ((1 − level)/2)^(1/n), Clopper–Pearson's upper
 * end for 0 of n. 0.232 for n = 14, 0.975 for n = 1.
 */
export function unseenShare(n: number, level = 0.95): number {
  if (!(n >= 1)) throw new RangeError(`unseenShare: n must be at least 1 (got ${n})`);
  return 1 - Math.pow((1 - level) / 2, 1 / n);
}
