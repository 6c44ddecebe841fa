/**
 * The weekly report's figures with their intervals, from src/stats: a mean of scores in [0, 1] (or of paired
 * differences in [−1, 1]) by BCa from 10 values, Wilson's interval of the rescaled mean below that, the share n
 * values can all miss for a constant sample; a share of items (abstention) by Wilson's interval. None of them
 * has zero width for n ≥ 1 (a percentile bootstrap of identical values would).
 */
import { meanInterval, proportionInterval, type Interval, type MeanIntervalMethod } from '../stats/index.js';

export type { Interval };

/** An interval and how it was computed (`bca`, `wilson-bounded`, `unseen-share`, `wilson`). */
export interface FigureInterval extends Interval {
  method: MeanIntervalMethod | 'wilson';
}

export interface MeanSummary {
  n: number;
  /** null when there is no value at all: "no data" is never a number. */
  mean: number | null;
  /** 95 % interval of the mean; null without data. */
  ci: FigureInterval | null;
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

/** Mean of values in `bounds` (default [0, 1]) with its interval. */
export function summarize(
  values: readonly number[],
  options: BootstrapOptions,
  bounds: readonly [number, number] = [0, 1],
): MeanSummary {
  const m = mean(values);
  if (m === null) return { n: 0, mean: null, ci: null };
  const ci = meanInterval(values, {
    resamples: options.samples,
    seed: options.seed,
    bounds,
    ...(options.level !== undefined ? { level: options.level } : {}),
  });
  return { n: values.length, mean: m, ci: ci && { low: ci.low, high: ci.high, method: ci.method } };
}

/** A share of `n` items (`k` of them) with Wilson's interval; no share without items. */
export function summarizeShare(k: number, n: number, level = 0.95): MeanSummary {
  if (n === 0) return { n: 0, mean: null, ci: null };
  const ci = proportionInterval(k, n, level);
  return { n, mean: k / n, ci: { ...ci, method: 'wilson' } };
}

export interface PairedComparison {
  /** Items scored in both runs. */
  n: number;
  meanDelta: number | null;
  ci: FigureInterval | null;
  /** The interval excludes 0 in the bad direction. */
  regression: boolean;
  /** The interval excludes 0 in the good direction. */
  improvement: boolean;
}

/**
 * Paired per-item deltas (current − previous), in [−1, 1], with the interval of their mean.
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
  const summary = summarize(deltas, options, [-1, 1]);
  if (summary.ci === null) return { n: 0, meanDelta: null, ci: null, regression: false, improvement: false };
  const worse = options.higherIsBetter ? summary.ci.high < 0 : summary.ci.low > 0;
  const better = options.higherIsBetter ? summary.ci.low > 0 : summary.ci.high < 0;
  return { n: summary.n, meanDelta: summary.mean, ci: summary.ci, regression: worse, improvement: better };
}
