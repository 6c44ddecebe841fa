import { quantile } from '../quantile.js';
import { seededRandom } from '../random.js';

export { quantile };

export interface Interval {
  low: number;
  high: number;
}

export interface MeanSummary {
  n: number;
  /** null when there is no value at all: "no data" is never a number. */
  mean: number | null;
  /** 95 % percentile-bootstrap interval of the mean; null without data. */
  ci: Interval | null;
}

export interface BootstrapOptions {
  samples: number;
  seed: number;
  /** Two-sided confidence level, default 0.95. */
  level?: number;
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Mean with a seeded percentile-bootstrap confidence interval. */
export function summarize(values: readonly number[], options: BootstrapOptions): MeanSummary {
  const m = mean(values);
  if (m === null) return { n: 0, mean: null, ci: null };
  return { n: values.length, mean: m, ci: bootstrapMeanInterval(values, options) };
}

export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): Interval {
  const n = values.length;
  if (n === 1) return { low: values[0] as number, high: values[0] as number };
  const random = seededRandom(options.seed);
  const means = new Float64Array(options.samples);
  for (let b = 0; b < options.samples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)] as number;
    means[b] = sum / n;
  }
  means.sort();
  const alpha = (1 - (options.level ?? 0.95)) / 2;
  return { low: quantile(means, alpha), high: quantile(means, 1 - alpha) };
}

export interface PairedComparison {
  /** Items scored in both runs. */
  n: number;
  meanDelta: number | null;
  ci: Interval | null;
  /** The interval excludes 0 in the bad direction. */
  regression: boolean;
  /** The interval excludes 0 in the good direction. */
  improvement: boolean;
}

/**
 * Paired per-item deltas (current − previous) with a paired bootstrap interval of their mean.
 * `higherIsBetter` is false for metrics such as noise sensitivity.
 */
export function comparePaired(
  previous: ReadonlyMap<string, number>,
  current: ReadonlyMap<string, number>,
  options: BootstrapOptions & { higherIsBetter: boolean },
): PairedComparison {
  const deltas: number[] = [];
  for (const [item, value] of [...current].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = previous.get(item);
    if (before !== undefined) deltas.push(value - before);
  }
  const summary = summarize(deltas, options);
  if (summary.ci === null) return { n: 0, meanDelta: null, ci: null, regression: false, improvement: false };
  const worse = options.higherIsBetter ? summary.ci.high < 0 : summary.ci.low > 0;
  const better = options.higherIsBetter ? summary.ci.low > 0 : summary.ci.high < 0;
  return { n: summary.n, meanDelta: summary.mean, ci: summary.ci, regression: worse, improvement: better };
}
