/**
 * How many more annotations an interval needs to reach a width.
 *
 * The figures here are smooth functions of averages over the pairs, so their standard error — and with it the
 * width of a percentile interval, about 2·1.96 standard errors at 95 % — falls as 1/√n:
 *
 *   w(n) ≈ c / √n,  with c estimated from this week's bootstrap width w at n pairs as ĉ = w·√n.
 *
 * For a target width w*, n* = (ĉ / w*)² = n·(w / w*)² pairs are needed, so n·((w / w*)² − 1) more. To halve
 * the width (w* = w / 2) that is n·(4 − 1) = 3n more — 4n in all, whatever w is: the bootstrap width drops out
 * of the halving figure and matters only for a fixed target such as ±0.1. Both assume the new annotations come
 * from the same mix of traces (same languages, strata and score spread) as the ones already in the cell; a cell
 * whose pairs are nearly all one class narrows more slowly until the other class shows up.
 */

/** Annotations beyond `n` for an interval of `width` at n pairs to narrow to `targetWidth`; 0 if it already is. */
export function moreAnnotationsForWidth(n: number, width: number, targetWidth: number): number | null {
  if (!(n >= 1) || !Number.isFinite(width) || !(targetWidth > 0)) return null;
  // A zero width means the resamples never varied (perfect agreement on a few pairs): 1/√n says nothing then.
  if (width <= 0) return null;
  if (width <= targetWidth) return 0;
  return Math.ceil(n * (width / targetWidth) ** 2 - 1e-9) - n;
}

/** Annotations beyond `n` that would halve the interval's width: 3n (see above); null without a width. */
export function moreAnnotationsToHalve(n: number, width: number): number | null {
  return moreAnnotationsForWidth(n, width, width / 2);
}
