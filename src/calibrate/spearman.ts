/**
 * Spearman's rank correlation ρ: Pearson's correlation of the two columns' average ranks (the tie-corrected form,
 * as scipy.stats.spearmanr computes it). Judge scores tie a lot (faithfulness is a share of a few claims; people
 * answer on three levels), so the shortcut 1 − 6Σd²/(n(n²−1)), which assumes no ties, is never used.
 * Not estimable below two pairs or when either side has a single value (its ranks do not vary).
 */
import { averageRanks } from './ranks.js';
import { clampUnit, estimated, notEstimable, tooFewPairs, type Estimate } from './estimate.js';

export function spearman(x: ArrayLike<number>, y: ArrayLike<number>, n: number = x.length): Estimate {
  const few = tooFewPairs(n);
  if (few) return few;
  const rx = averageRanks(x, n);
  const ry = averageRanks(y, n);
  // Both rank vectors have mean (n + 1) / 2.
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (rx[i] as number) - mean;
    const dy = (ry[i] as number) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0) return notEstimable('the judge gave every pair the same score: ranks do not vary');
  if (syy === 0) return notEstimable('people gave every pair the same score: ranks do not vary');
  return estimated(clampUnit(sxy / Math.sqrt(sxx * syy)));
}
