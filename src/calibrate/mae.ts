/**
 * Mean absolute error between the judge's and people's scores on the 0–1 scale: how far apart they are on
 * average, in score units (0.1 = a tenth of the scale). A 3-level human answer counts as 0, 0.5 or 1.
 * Not estimable below two pairs (one pair is an anecdote, and it has no interval).
 */
import { estimated, tooFewPairs, type Estimate } from './estimate.js';

export function meanAbsoluteError(x: ArrayLike<number>, y: ArrayLike<number>, n: number = x.length): Estimate {
  const few = tooFewPairs(n);
  if (few) return few;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs((x[i] as number) - (y[i] as number));
  return estimated(sum / n);
}
