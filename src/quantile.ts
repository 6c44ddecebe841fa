/**
 * Linear-interpolated quantile of an already sorted array: the experiment's bootstrap intervals
 * (experiment/stats.ts) and the calibration's (calibrate/bootstrap.ts) take their endpoints with it.
 */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}
