/**
 * What every estimator returns: a finite value, or an explicit reason it cannot be estimated. NaN never leaves
 * src/calibrate: a figure that is not defined on its data (too few pairs, no variation, one class only) says so.
 */
export interface Estimated {
  estimable: true;
  value: number;
}

export interface NotEstimable {
  estimable: false;
  /** One line a report can show as it is, e.g. `the judge gave every item the same score`. */
  reason: string;
}

export type Estimate = Estimated | NotEstimable;

/**
 * An estimator over paired columns of equal length (judge, human; or stored, re-scored). It reads the first `n`
 * entries, so the bootstrap can hand it reused buffers.
 */
export type PairEstimator = (x: ArrayLike<number>, y: ArrayLike<number>, n?: number) => Estimate;

export const MIN_PAIRS = 2;

export function estimated(value: number): Estimate {
  if (!Number.isFinite(value)) throw new RangeError(`an estimator produced ${value}: a bug, not a figure`);
  return { estimable: true, value };
}

export function notEstimable(reason: string): NotEstimable {
  return { estimable: false, reason };
}

export function tooFewPairs(n: number): NotEstimable | null {
  return n < MIN_PAIRS ? notEstimable(`${n} pair${n === 1 ? '' : 's'}: at least ${MIN_PAIRS} are needed`) : null;
}

/** Clamps a correlation-like value into [−1, 1] against rounding (perfect agreement reads 1, not 1.0000000002). */
export function clampUnit(value: number): number {
  return Math.max(-1, Math.min(1, value));
}
