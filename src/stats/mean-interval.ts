/**
 * The interval of a mean of bounded values (scores in [0, 1], paired differences in [−1, 1]), in one of three
 * ways, chosen by the sample and named on the result:
 *
 * - `bca`: the bias-corrected and accelerated bootstrap (Efron 1987), for n ≥ MIN_BOOTSTRAP_N values that are
 *   not all equal. It corrects the percentile interval for the skew of a mean near a bound (most faithfulness
 *   scores sit at 1). It is computed as `scipy.stats.bootstrap(method='BCa')` computes it (mid-rank bias,
 *   jackknife acceleration, linear quantiles), and the tests compare it with scipy's values.
 * - `wilson-bounded`: below MIN_BOOTSTRAP_N values, a bootstrap has too few distinct resamples to mean much
 *   (two values give three resample means). The sample mean, rescaled to [0, 1], gets Wilson's score interval
 *   for n observations: a variable in [0, 1] with mean μ has a variance of at most μ(1 − μ), the Bernoulli
 *   variance Wilson's interval is built for, so the interval is at least as wide as the sample warrants.
 * - `unseen-share`: all n values equal c. Any bootstrap collapses to [c, c], which claims a certainty n
 *   observations cannot give. Instead: the share of the population n draws could all have missed
 *   (`unseenShare`, Clopper–Pearson's bound for 0 of n) could lie anywhere between the bounds, so the mean lies
 *   in [c − u·(c − lower), c + u·(upper − c)]. For 14 values of 0 in [0, 1] that is [0, 0.232].
 *
 * No sample of n ≥ 1 gets an interval of zero width.
 */
import { quantile } from '../quantile.js';
import { seededRandom } from '../random.js';
import { normalCdf, normalQuantile } from './normal.js';
import { unseenShare, wilsonInterval, type Interval } from './proportion.js';

/** Below this many values the bootstrap is not used (see the file's comment). */
export const MIN_BOOTSTRAP_N = 10;

export type MeanIntervalMethod = 'bca' | 'wilson-bounded' | 'unseen-share';

export interface MeanInterval extends Interval {
  method: MeanIntervalMethod;
  level: number;
}

export interface MeanIntervalOptions {
  /** Bootstrap resamples (BCa only). */
  resamples: number;
  /** Seed of the resampling: the same seed and values give the same interval. */
  seed: number;
  /** Two-sided confidence level, default 0.95. */
  level?: number;
  /** The range the values can take, default [0, 1]. */
  bounds?: readonly [number, number];
}

/** The mean's interval; null without values. Throws on a value outside the bounds or not finite. */
export function meanInterval(values: readonly number[], options: MeanIntervalOptions): MeanInterval | null {
  const n = values.length;
  if (n === 0) return null;
  const level = options.level ?? 0.95;
  const [lower, upper] = options.bounds ?? [0, 1];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const v of values) {
    if (!Number.isFinite(v) || v < lower || v > upper) {
      throw new RangeError(`meanInterval: ${v} is outside [${lower}, ${upper}]`);
    }
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const mean = sum / n;
  if (max - min <= 1e-12 * (upper - lower)) return unseenShareInterval(min, n, level, lower, upper);
  const bounded = () => wilsonBounded(mean, n, level, lower, upper);
  if (n < MIN_BOOTSTRAP_N) return bounded();
  return bcaInterval(values, mean, { ...options, level }) ?? bounded();
}

function unseenShareInterval(c: number, n: number, level: number, lower: number, upper: number): MeanInterval {
  const u = unseenShare(n, level);
  return { low: c - u * (c - lower), high: c + u * (upper - c), method: 'unseen-share', level };
}

function wilsonBounded(mean: number, n: number, level: number, lower: number, upper: number): MeanInterval {
  const width = upper - lower;
  const p = Math.min(1, Math.max(0, (mean - lower) / width));
  const w = wilsonInterval(p, n, level);
  return { low: lower + w.low * width, high: lower + w.high * width, method: 'wilson-bounded', level };
}

/** BCa as scipy computes it; null when the bootstrap distribution is degenerate. */
function bcaInterval(
  values: readonly number[],
  mean: number,
  options: MeanIntervalOptions & { level: number },
): MeanInterval | null {
  const n = values.length;
  const b = options.resamples;
  if (!Number.isInteger(b) || b < 100) throw new RangeError(`meanInterval: resamples must be ≥ 100 (got ${b})`);
  const random = seededRandom(options.seed);
  const means = new Float64Array(b);
  for (let k = 0; k < b; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[Math.floor(random() * n)] as number;
    means[k] = s / n;
  }
  means.sort();
  // Bias: the mid-rank share of resample means below the sample's mean.
  let below = 0;
  let atOrBelow = 0;
  for (const m of means) {
    if (m < mean) below += 1;
    if (m <= mean) atOrBelow += 1;
  }
  const share = (below + atOrBelow) / (2 * b);
  if (share <= 0 || share >= 1) return null;
  const z0 = normalQuantile(share);
  // Acceleration from the jackknife of the mean.
  let total = 0;
  for (const v of values) total += v;
  const jack = values.map((v) => (total - v) / (n - 1));
  const jackMean = jack.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  for (const j of jack) {
    const d = jackMean - j;
    num += d * d * d;
    den += d * d;
  }
  const a = den > 0 ? num / (6 * Math.pow(den, 1.5)) : 0;
  const zAlpha = normalQuantile((1 - options.level) / 2);
  const adjusted = (z: number) => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
  const low = quantile(means, adjusted(zAlpha));
  const high = quantile(means, adjusted(-zAlpha));
  if (!(high > low)) return null;
  return { low, high, method: 'bca', level: options.level };
}
