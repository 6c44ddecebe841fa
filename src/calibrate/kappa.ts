/**
 * Cohen's κ and its weighted forms, on category codes 0..k−1 (x the judge, y the people):
 *
 *   κ_w = 1 − Σ w_ij·O_ij / Σ w_ij·E_ij
 *
 * O the observed share of pairs in cell (i, j), E = row share × column share (what chance alone would give),
 * w the disagreement weight: 1 off the diagonal for plain (nominal) κ — which is then (p_o − p_e)/(1 − p_e) —,
 * |i − j|/(k − 1) for linear and ((i − j)/(k − 1))² for quadratic weights (Cohen 1968). 1 is perfect agreement,
 * 0 what chance gives, below 0 worse than chance.
 *
 * Not estimable below two pairs, when either rater used one category only (κ is then 0 whatever the raw
 * agreement — a judge that passes everything "agrees" with people 90 % of the time when they pass 90 %, and
 * κ cannot tell that from chance). The denominator (the expected disagreement) is 0 exactly when both raters
 * used one and the same category, the first of those cases.
 */
import { estimated, notEstimable, tooFewPairs, type Estimate, type PairEstimator } from './estimate.js';
import { LEVELS } from './levels.js';

export type KappaWeights = 'nominal' | 'linear' | 'quadratic';

export function disagreementWeight(i: number, j: number, categories: number, weights: KappaWeights): number {
  if (i === j) return 0;
  if (weights === 'nominal') return 1;
  const d = Math.abs(i - j) / (categories - 1);
  return weights === 'linear' ? d : d * d;
}

/**
 * An estimator of κ on `categories` codes with the given weights. `names` name the categories in the reasons
 * (e.g. ['fail', 'pass']).
 */
export function kappaEstimator(categories: number, weights: KappaWeights, names: readonly string[]): PairEstimator {
  if (!Number.isInteger(categories) || categories < 2) {
    throw new RangeError(`κ needs at least 2 categories (got ${categories})`);
  }
  const w = new Float64Array(categories * categories);
  for (let i = 0; i < categories; i++) {
    for (let j = 0; j < categories; j++) w[i * categories + j] = disagreementWeight(i, j, categories, weights);
  }
  const counts = new Float64Array(categories * categories);
  const rows = new Float64Array(categories);
  const cols = new Float64Array(categories);
  const name = (c: number) => names[c] ?? String(c);

  return (x, y, n = x.length): Estimate => {
    const few = tooFewPairs(n);
    if (few) return few;
    counts.fill(0);
    rows.fill(0);
    cols.fill(0);
    for (let k = 0; k < n; k++) {
      const i = x[k] as number;
      const j = y[k] as number;
      if (!(Number.isInteger(i) && i >= 0 && i < categories && Number.isInteger(j) && j >= 0 && j < categories)) {
        throw new RangeError(`category codes must be integers in [0, ${categories}) (got ${i}, ${j})`);
      }
      counts[i * categories + j] = (counts[i * categories + j] as number) + 1;
      rows[i] = (rows[i] as number) + 1;
      cols[j] = (cols[j] as number) + 1;
    }
    const only = (margin: Float64Array) => margin.findIndex((c) => c === n);
    const judgeOnly = only(rows);
    const humanOnly = only(cols);
    if (judgeOnly >= 0 && humanOnly >= 0 && judgeOnly === humanOnly) {
      const both = `the judge and people put every pair in ${name(judgeOnly)}`;
      return notEstimable(`${both}: no agreement beyond chance to see`);
    }
    const whatever = 'κ is 0 whatever the agreement';
    if (judgeOnly >= 0) return notEstimable(`the judge put every pair in ${name(judgeOnly)}: ${whatever}`);
    if (humanOnly >= 0) return notEstimable(`people put every pair in ${name(humanOnly)}: ${whatever}`);
    let observed = 0;
    let expected = 0;
    for (let i = 0; i < categories; i++) {
      for (let j = 0; j < categories; j++) {
        const weight = w[i * categories + j] as number;
        observed += weight * (counts[i * categories + j] as number);
        expected += (weight * (rows[i] as number) * (cols[j] as number)) / n;
      }
    }
    // Each side used two categories or more, so some off-diagonal cell has a positive expectation: the
    // denominator is 0 only in the both-in-one-category case returned above.
    return estimated(1 - observed / expected);
  };
}

/** Cohen's κ on pass/fail codes (0 fail, 1 pass). */
export const passFailKappa: PairEstimator = kappaEstimator(2, 'nominal', ['fail', 'pass']);

/** Weighted κ on the three levels' codes (0 unsupported, 1 partly, 2 supported). */
export const linearWeightedKappa: PairEstimator = kappaEstimator(3, 'linear', LEVELS);
export const quadraticWeightedKappa: PairEstimator = kappaEstimator(3, 'quadratic', LEVELS);
