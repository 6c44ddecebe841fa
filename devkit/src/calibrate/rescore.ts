/**
 * Simulated anchors and a simulated judge re-scoring them: unchanged but non-deterministic the way vLLM is at
 * temperature 0, or changed (flipping a share of its verdicts).
 *
 * An anchor is what the judge decided about one sample: a claim-share metric (faithfulness; context precision
 * and recall alike) keeps one supported/unsupported verdict per claim and scores supported / claims (not
 * scorable without claims); a graded metric (answer relevancy) keeps a similarity and a noncommittal verdict
 * and scores 0 when noncommittal, else the similarity.
 *
 * Non-determinism at temperature 0 (VLLM_T0). Greedy decoding is deterministic only if the logits are: vLLM's
 * kernels reduce in an order that depends on the batch a request lands in, so under load the same prompt can
 * take a different token wherever two candidates are within rounding of each other, and the rest of the
 * answer follows the new path. Reported measurements: 1000 identical temperature-0 requests to one vLLM server
 * gave 80 distinct completions, all agreeing on the first ~100 tokens (Thinking Machines, "Defeating
 * Nondeterminism in LLM Inference", 2025); vLLM documents that it does not guarantee reproducibility without
 * its batch-invariant mode. The model here:
 *
 * - `divergeShare` 0.10 of re-scores depart from the stored answer (the 80-in-1000 figure says at least 8 %;
 *   rounded up for a busier server). The others reproduce it token for token.
 * - A departed claim-share answer decides its borderline verdicts anew: each verdict flips with
 *   `divergedVerdictFlip` 0.15, and with `claimResplit` 0.3 the claims are cut differently (one split in two
 *   or two merged). Over all anchors that is about 1.5 % of verdicts flipped — a verdict flips only where the
 *   judge was near a tie, which is what temperature-0 drift looks like.
 * - A departed graded answer asks other questions: the similarity moves by N(0, `similarityJitter` 0.03) and
 *   the noncommittal verdict flips with `divergedVerdictFlip`.
 * - Every graded score carries `embeddingNoise` (±1e-6): batched embeddings of identical text differ in the
 *   last digits.
 *
 * A changed judge (`flipRate` > 0) flips each verdict — every claim's and every noncommittal one — with that
 * probability, on top of the non-determinism.
 */
import { createRng, type Rng } from '../corpus/random.js';

export type SimAnchor =
  | { id: string; metric: string; kind: 'claims'; verdicts: readonly boolean[] }
  | { id: string; metric: string; kind: 'graded'; similarity: number; noncommittal: boolean };

export interface Nondeterminism {
  divergeShare: number;
  divergedVerdictFlip: number;
  claimResplit: number;
  similarityJitter: number;
  embeddingNoise: number;
}

export const VLLM_T0: Readonly<Nondeterminism> = {
  divergeShare: 0.1,
  divergedVerdictFlip: 0.15,
  claimResplit: 0.3,
  similarityJitter: 0.03,
  embeddingNoise: 1e-6,
};

/**
 * A server `factor` times as non-deterministic: that many times as many re-scores depart from the stored answer
 * (capped at all of them), each departure behaving as before. The stress test of the tolerance.
 */
export function scaledNondeterminism(factor: number, base: Nondeterminism = VLLM_T0): Nondeterminism {
  return { ...base, divergeShare: Math.min(1, base.divergeShare * factor) };
}

export interface RescoreOptions {
  seed: number | string;
  nondeterminism?: Nondeterminism;
  /** Share of verdicts a changed judge flips; 0 (default) for an unchanged judge. */
  flipRate?: number;
}

export interface SimScore {
  anchorId: string;
  metric: string;
  score: number | null;
}

export function anchorScore(anchor: SimAnchor): number | null {
  if (anchor.kind === 'graded') return anchor.noncommittal ? 0 : anchor.similarity;
  if (anchor.verdicts.length === 0) return null;
  return anchor.verdicts.filter(Boolean).length / anchor.verdicts.length;
}

/**
 * `count` anchors per metric, like a golden set's: claim answers with 1–8 claims, 60 % fully supported and the
 * rest 70 % supported per claim; graded answers with similarity N(0.8, 0.1) clipped, 5 % noncommittal.
 */
export function simulatedAnchors(
  count: number,
  seed: number | string,
  metrics = { claims: ['faithfulness'], graded: ['answer_relevancy'] },
): SimAnchor[] {
  const rng = createRng(`anchors/${String(seed)}`);
  const anchors: SimAnchor[] = [];
  for (const metric of metrics.claims) {
    for (let i = 0; i < count; i++) {
      const claims = rng.between(1, 8);
      const all = rng.chance(0.6);
      const verdicts = Array.from({ length: claims }, () => all || rng.chance(0.7));
      anchors.push({ id: `${metric}-${i}`, metric, kind: 'claims', verdicts });
    }
  }
  for (const metric of metrics.graded) {
    for (let i = 0; i < count; i++) {
      const similarity = clip(normal(rng, 0.8, 0.1));
      anchors.push({ id: `${metric}-${i}`, metric, kind: 'graded', similarity, noncommittal: rng.chance(0.05) });
    }
  }
  return anchors;
}

export function storedScores(anchors: readonly SimAnchor[]): SimScore[] {
  return anchors.map((a) => ({ anchorId: a.id, metric: a.metric, score: anchorScore(a) }));
}

/** This week's scores of the anchors by the simulated judge. */
export function rescoreAnchors(anchors: readonly SimAnchor[], options: RescoreOptions): SimScore[] {
  const nd = options.nondeterminism ?? VLLM_T0;
  const flipRate = options.flipRate ?? 0;
  return anchors.map((anchor) => {
    // One stream per anchor: the draws for one never shift another's.
    const rng = createRng(`rescore/${String(options.seed)}/${anchor.id}`);
    const diverged = rng.chance(nd.divergeShare);
    const flip = (v: boolean) => {
      let out = v;
      if (diverged && rng.chance(nd.divergedVerdictFlip)) out = !out;
      if (rng.chance(flipRate)) out = !out;
      return out;
    };
    if (anchor.kind === 'graded') {
      const similarity = diverged ? clip(anchor.similarity + normal(rng, 0, nd.similarityJitter)) : anchor.similarity;
      const noisy = clip(similarity + (rng.next() * 2 - 1) * nd.embeddingNoise);
      const score = anchorScore({ ...anchor, similarity: noisy, noncommittal: flip(anchor.noncommittal) });
      return { anchorId: anchor.id, metric: anchor.metric, score };
    }
    let verdicts = anchor.verdicts.map(flip);
    if (diverged && verdicts.length > 0 && rng.chance(nd.claimResplit)) {
      const at = rng.int(verdicts.length);
      verdicts =
        rng.chance(0.5) || verdicts.length === 1
          ? [...verdicts.slice(0, at + 1), verdicts[at] as boolean, ...verdicts.slice(at + 1)]
          : verdicts.filter((_, i) => i !== at);
    }
    return { anchorId: anchor.id, metric: anchor.metric, score: anchorScore({ ...anchor, verdicts }) };
  });
}

function normal(rng: Rng, mean: number, sd: number): number {
  const u = Math.max(rng.next(), 1e-12);
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

function clip(x: number): number {
  return Math.max(0, Math.min(1, x));
}
