/**
 * Kendall's τ-b (ties in either column accounted for, as scipy.stats.kendalltau's default):
 *
 *   τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂))
 *
 * with C and D the concordant and discordant pairs, n₀ = n(n−1)/2, n₁ and n₂ the pairs tied in x and in y.
 * Counted in O(n log n) with Knight's method (sort by x then y; the discordant pairs are the swaps a stable
 * merge sort of y makes), since the bootstrap evaluates it thousands of times. x is the judge, y the people.
 * Not estimable below two pairs or when either side has a single value (every pair tied: the denominator is 0).
 */
import { clampUnit, estimated, notEstimable, tooFewPairs, type Estimate } from './estimate.js';
import { ascendingOrder, codeRange, identity } from './ranks.js';

export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>, n: number = x.length): Estimate {
  const few = tooFewPairs(n);
  if (few) return few;
  const order = byXThenY(x, y, n);

  // Pairs tied in x (n₁) and tied in both (n₃), from runs in the (x, y) order.
  let tiedX = 0;
  let tiedXY = 0;
  let runX = 1;
  let runXY = 1;
  for (let k = 1; k < n; k++) {
    const a = order[k - 1] as number;
    const b = order[k] as number;
    if (x[a] === x[b]) {
      runX++;
      if (y[a] === y[b]) runXY++;
      else {
        tiedXY += (runXY * (runXY - 1)) / 2;
        runXY = 1;
      }
    } else {
      tiedX += (runX * (runX - 1)) / 2;
      tiedXY += (runXY * (runXY - 1)) / 2;
      runX = 1;
      runXY = 1;
    }
  }
  tiedX += (runX * (runX - 1)) / 2;
  tiedXY += (runXY * (runXY - 1)) / 2;

  // y in that order; a stable merge sort counts the pairs it has to swap (strictly decreasing y: discordant).
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) ys[k] = y[order[k] as number] as number;
  const swaps = mergeSortCountingSwaps(ys);

  // Pairs tied in y (n₂), from runs in the now sorted y.
  let tiedY = 0;
  let runY = 1;
  for (let k = 1; k < n; k++) {
    if (ys[k] === ys[k - 1]) runY++;
    else {
      tiedY += (runY * (runY - 1)) / 2;
      runY = 1;
    }
  }
  tiedY += (runY * (runY - 1)) / 2;

  const pairs = (n * (n - 1)) / 2;
  if (tiedX === pairs) return notEstimable('the judge gave every pair the same score: every pair is tied');
  if (tiedY === pairs) return notEstimable('people gave every pair the same score: every pair is tied');
  // C − D = (pairs not tied in x nor y) − 2D, and the pairs untied in both number n₀ − n₁ − n₂ + n₃.
  const concordantMinusDiscordant = pairs - tiedX - tiedY + tiedXY - 2 * swaps;
  return estimated(clampUnit(concordantMinusDiscordant / Math.sqrt((pairs - tiedX) * (pairs - tiedY))));
}

/** Indices ordered by x, ties by y: two stable counting sorts on dense codes, else a comparison sort. */
function byXThenY(x: ArrayLike<number>, y: ArrayLike<number>, n: number): Uint32Array {
  if (codeRange(x, n) > 0 && codeRange(y, n) > 0) return ascendingOrder(x, n, ascendingOrder(y, n));
  return identity(n).sort((a, b) => (x[a] as number) - (x[b] as number) || (y[a] as number) - (y[b] as number));
}

/** Sorts `values` ascending in place (stable bottom-up merge sort); returns how many inversions it removed. */
function mergeSortCountingSwaps(values: Float64Array<ArrayBuffer>): number {
  const n = values.length;
  let from: Float64Array<ArrayBuffer> = values;
  let to = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // Equal values keep their order (not an inversion: a tie in y is neither concordant nor discordant).
        if ((from[j] as number) < (from[i] as number)) {
          to[k++] = from[j++] as number;
          swaps += mid - i;
        } else to[k++] = from[i++] as number;
      }
      while (i < mid) to[k++] = from[i++] as number;
      while (j < hi) to[k++] = from[j++] as number;
    }
    [from, to] = [to, from];
  }
  if (from !== values) values.set(from);
  return swaps;
}
