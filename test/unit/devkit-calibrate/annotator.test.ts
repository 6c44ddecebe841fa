import { describe, expect, it } from 'vitest';
import { createRng } from '@ragwatch/devkit/corpus/random.js';
import { annotate, onScale } from '@ragwatch/devkit/calibrate/annotator.js';
import { discreteDistribution, faithfulnessLike, similarityLike } from '@ragwatch/devkit/calibrate/distribution.js';
import { plantedFigures } from '@ragwatch/devkit/calibrate/planted.js';
import {
  anchorScore,
  rescoreAnchors,
  scaledNondeterminism,
  simulatedAnchors,
  storedScores,
  VLLM_T0,
} from '@ragwatch/devkit/calibrate/rescore.js';

describe('score distributions', () => {
  it('merge repeats, normalise and draw in proportion', () => {
    const d = discreteDistribution([
      { value: 1, p: 2 },
      { value: 0, p: 1 },
      { value: 1, p: 1 },
    ]);
    expect(d.masses).toEqual([
      { value: 0, p: 0.25 },
      { value: 1, p: 0.75 },
    ]);
    const rng = createRng('draw');
    const ones = Array.from({ length: 20_000 }, () => d.draw(rng)).filter((v) => v === 1).length;
    expect(ones / 20_000).toBeCloseTo(0.75, 1);
    expect(() => discreteDistribution([{ value: 2, p: 1 }])).toThrow(/bad mass/);
    expect(() => discreteDistribution([{ value: 0.5, p: 0 }])).toThrow(/needs some mass/);
  });

  it('faithfulness-like passes a 0.85 gate about 70 % of the time, ties a lot, and sums to 1', () => {
    const d = faithfulnessLike();
    const sum = d.masses.reduce((s, m) => s + m.p, 0);
    expect(sum).toBeCloseTo(1, 12);
    const pass = d.masses.filter((m) => m.value >= 0.85).reduce((s, m) => s + m.p, 0);
    expect(pass).toBeGreaterThan(0.65);
    expect(pass).toBeLessThan(0.75);
    expect(d.masses.find((m) => m.value === 1)!.p).toBeGreaterThan(0.6);
    expect(similarityLike().masses).toHaveLength(101);
  });
});

describe('the simulated annotator', () => {
  const judge = Array.from({ length: 400 }, (_, i) => (i % 9) / 8);

  it('is reproducible for a seed and moves with another', () => {
    const a = annotate(judge, { agreement: 0.5, seed: 1, scale: 'levels' });
    expect(annotate(judge, { agreement: 0.5, seed: 1, scale: 'levels' })).toEqual(a);
    expect(annotate(judge, { agreement: 0.5, seed: 2, scale: 'levels' })).not.toEqual(a);
  });

  it('follows the judge at agreement 1, on the scale asked for', () => {
    expect(annotate(judge, { agreement: 1, seed: 1, scale: 'continuous' })).toEqual(judge);
    const levels = annotate(judge, { agreement: 1, seed: 1, scale: 'levels' });
    expect(levels).toEqual(judge.map((s) => onScale(s, 'levels')));
    expect(new Set(levels)).toEqual(new Set([0, 0.5, 1]));
    expect(onScale(0.25, 'levels')).toBe(0.5);
    expect(onScale(0.74, 'levels', { partly: 0.25, supported: 0.7 })).toBe(1);
  });

  it('answers independently of the judge at agreement 0, from the same distribution', () => {
    const human = annotate(judge, { agreement: 0, seed: 1, scale: 'continuous' });
    const same = human.filter((h, i) => h === judge[i]).length;
    expect(same / judge.length).toBeLessThan(0.2); // chance: 1/9 of the values match
    const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    expect(mean(human)).toBeCloseTo(mean(judge), 1);
  });

  it('rejects an agreement outside [0, 1]', () => {
    expect(() => annotate(judge, { agreement: 1.2, seed: 1, scale: 'levels' })).toThrow(/agreement/);
  });
});

describe('what the annotator planted', () => {
  it('is κ = agreement for any shared categorisation, and ρ = agreement on the judge’s scale', () => {
    for (const agreement of [0, 0.2, 0.55, 0.8, 1]) {
      const cont = plantedFigures(faithfulnessLike(), { agreement, scale: 'continuous', threshold: 0.85 });
      expect(cont.kappa).toBeCloseTo(agreement, 12);
      expect(cont.weighted_kappa_linear).toBeCloseTo(agreement, 12);
      expect(cont.weighted_kappa_quadratic).toBeCloseTo(agreement, 12);
      expect(cont.spearman).toBeCloseTo(agreement, 12);
      const lv = plantedFigures(similarityLike(), { agreement, scale: 'levels', threshold: 0.85 });
      expect(lv.weighted_kappa_linear).toBeCloseTo(agreement, 12);
    }
  });

  it("matches Kendall's τ-b in closed form: (a²·t + 8a(1 − a)·Var F*) / t", () => {
    // Two pairs, each "copied" with probability a: both copied → tied-or-concordant (t = P(not tied));
    // one copied → E[(2F*(X) − 1)²] = 4·Var F*(X); neither → 0 (independent).
    const d = faithfulnessLike();
    let below = 0;
    let varF = 0;
    let meanF = 0;
    const f = d.masses.map((m) => {
      const v = below + m.p / 2;
      below += m.p;
      return v;
    });
    d.masses.forEach((m, i) => (meanF += m.p * f[i]!));
    d.masses.forEach((m, i) => (varF += m.p * (f[i]! - meanF) ** 2));
    const t = 1 - d.masses.reduce((s, m) => s + m.p * m.p, 0);
    for (const a of [0.2, 0.8]) {
      expect(plantedFigures(d, { agreement: a, scale: 'continuous', threshold: 0.85 }).kendall_tau_b).toBeCloseTo(
        (a * a * t + 8 * a * (1 - a) * varF) / t,
        12,
      );
    }
  });

  it('puts the mean absolute error at (1 − a)·E|X − X′|', () => {
    const d = discreteDistribution([
      { value: 0, p: 0.5 },
      { value: 1, p: 0.5 },
    ]);
    // E|X − X′| = P(X ≠ X′) = 0.5.
    expect(plantedFigures(d, { agreement: 0.6, scale: 'continuous', threshold: 0.85 }).mae).toBeCloseTo(0.4 * 0.5, 12);
  });
});

describe('simulated anchors and re-scores', () => {
  const anchors = simulatedAnchors(300, 'a');

  it('score claim anchors as supported / claims and graded ones as the similarity unless noncommittal', () => {
    expect(anchorScore({ id: 'x', metric: 'f', kind: 'claims', verdicts: [true, false, true, true] })).toBe(0.75);
    expect(anchorScore({ id: 'x', metric: 'f', kind: 'claims', verdicts: [] })).toBeNull();
    expect(anchorScore({ id: 'x', metric: 'r', kind: 'graded', similarity: 0.8, noncommittal: true })).toBe(0);
    expect(new Set(anchors.map((a) => a.metric))).toEqual(new Set(['faithfulness', 'answer_relevancy']));
  });

  it('reproduce the stored scores exactly without non-determinism or flips', () => {
    const none = { divergeShare: 0, divergedVerdictFlip: 0, claimResplit: 0, similarityJitter: 0, embeddingNoise: 0 };
    expect(rescoreAnchors(anchors, { seed: 1, nondeterminism: none })).toEqual(storedScores(anchors));
  });

  it('at vLLM temperature-0 non-determinism, move about a tenth of the anchors, by a little', () => {
    const before = storedScores(anchors);
    const after = rescoreAnchors(anchors, { seed: 1, nondeterminism: VLLM_T0 });
    const moved = after.filter((s, i) => Math.abs((s.score ?? -1) - (before[i]!.score ?? -1)) >= 0.001).length;
    expect(moved / anchors.length).toBeGreaterThan(0.03);
    expect(moved / anchors.length).toBeLessThan(0.12);
    const twice = rescoreAnchors(anchors, { seed: 1, nondeterminism: scaledNondeterminism(2) });
    const movedTwice = twice.filter((s, i) => Math.abs((s.score ?? -1) - (before[i]!.score ?? -1)) >= 0.001).length;
    expect(movedTwice).toBeGreaterThan(moved);
    expect(scaledNondeterminism(20).divergeShare).toBe(1);
  });

  it('with a changed judge, flip about the share of verdicts asked for', () => {
    // One-claim anchors: the score is the verdict, so the flipped share is the moved share.
    const single = Array.from({ length: 4000 }, (_, i) => ({
      id: `s${i}`,
      metric: 'faithfulness',
      kind: 'claims' as const,
      verdicts: [i % 3 !== 0],
    }));
    const none = { ...VLLM_T0, divergeShare: 0 };
    const after = rescoreAnchors(single, { seed: 2, flipRate: 0.1, nondeterminism: none });
    const flipped = after.filter((s, i) => s.score !== anchorScore(single[i]!)).length / single.length;
    expect(flipped).toBeCloseTo(0.1, 1);
  });
});
