/**
 * A simulated annotator: a person's scores of traces a judge scored, at a planted level of agreement.
 *
 * The model is the one Cohen's κ is built on. For each trace, with probability `agreement` the person sees
 * what the judge saw and gives the judge's score (on their own scale); otherwise they give an independent
 * opinion, a score drawn from the same distribution as the judge's scores, unrelated to this trace's. Both
 * raters then have the same distribution of scores, and for any way of putting scores into categories that
 * both sides share (pass/fail at a threshold, the three levels), the population κ — plain or weighted, any
 * weights — equals `agreement` exactly:
 *
 *   observed disagreement = (1 − a)·(disagreement of two independent draws) = (1 − a)·(expected disagreement)
 *   κ = 1 − observed / expected = a.
 *
 * For the same reason the population Spearman correlation (Pearson's on mid-ranks) equals `agreement` when
 * the person answers on the judge's scale (`continuous`). With `levels` the person answers on the three
 * levels, as the annotation queue asks; figures comparing the judge's raw score with a level (ρ, τ, MAE, κ
 * at a threshold that does not fall on a cut) then differ from `agreement`: planted.ts computes them exactly.
 */
import { createRng, type Rng } from '../corpus/random.js';

export interface AnnotatorCuts {
  partly: number;
  supported: number;
}

export interface AnnotatorOptions {
  /** Planted agreement in [0, 1]: the probability that a person's answer follows the judge's score. */
  agreement: number;
  seed: number | string;
  /** `levels`: 0, 0.5 or 1 (unsupported, partly, supported); `continuous`: a 0–1 score like the judge's. */
  scale: 'levels' | 'continuous';
  /** Cut points onto the levels (score ≥ cut); default 0.25 and 0.75, ragwatch's defaults. */
  cuts?: AnnotatorCuts;
  /** Draws an independent opinion; default: one of the given judge scores, uniformly. */
  independent?: (rng: Rng) => number;
}

export const DEFAULT_ANNOTATOR_CUTS: Readonly<AnnotatorCuts> = { partly: 0.25, supported: 0.75 };

export function onScale(
  score: number,
  scale: AnnotatorOptions['scale'],
  cuts: AnnotatorCuts = DEFAULT_ANNOTATOR_CUTS,
): number {
  if (scale === 'continuous') return score;
  return score >= cuts.supported ? 1 : score >= cuts.partly ? 0.5 : 0;
}

/** One human score per judge score, in order. The same seed and scores give the same answers. */
export function annotate(judgeScores: readonly number[], options: AnnotatorOptions): number[] {
  const { agreement, scale } = options;
  if (!(agreement >= 0 && agreement <= 1)) throw new RangeError(`agreement must be in [0, 1] (got ${agreement})`);
  const rng = createRng(`annotator/${String(options.seed)}`);
  const independent = options.independent ?? ((r: Rng) => judgeScores[r.int(judgeScores.length)] as number);
  return judgeScores.map((judge) => {
    const follows = rng.next() < agreement;
    // Drawn either way, so one trace's answer never shifts the draws of the next.
    const other = independent(rng);
    return onScale(follows ? judge : other, scale, options.cuts);
  });
}
