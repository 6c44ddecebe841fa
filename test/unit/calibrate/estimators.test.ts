import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Estimate } from '../../../src/calibrate/estimate.js';
import {
  kappaEstimator,
  linearWeightedKappa,
  passFailKappa,
  quadraticWeightedKappa,
} from '../../../src/calibrate/kappa.js';
import { kendallTauB } from '../../../src/calibrate/kendall.js';
import { levelIndex } from '../../../src/calibrate/levels.js';
import { meanAbsoluteError } from '../../../src/calibrate/mae.js';
import { averageRanks, denseCodes } from '../../../src/calibrate/ranks.js';
import { spearman } from '../../../src/calibrate/spearman.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const value = (e: Estimate): number => {
  if (!e.estimable) throw new Error(`not estimable: ${e.reason}`);
  return e.value;
};
const codes = (scores: number[], f: (s: number) => number) => scores.map(f);
const pass = (s: number) => (s >= 0.85 ? 1 : 0);
const level = (s: number) => levelIndex(s);

// ---- A second implementation, written naively from the textbook definitions, to cross-check against. ----

/** Rank of each value by counting: 1 + values below + (ties − 1) / 2. O(n²). */
function naiveRanks(v: number[]): number[] {
  return v.map((a) => 1 + v.filter((b) => b < a).length + (v.filter((b) => b === a).length - 1) / 2);
}
function naivePearson(a: number[], b: number[]): number | null {
  const ma = a.reduce((s, x) => s + x, 0) / a.length;
  const mb = b.reduce((s, x) => s + x, 0) / b.length;
  const cov = a.reduce((s, x, i) => s + (x - ma) * (b[i]! - mb), 0);
  const va = a.reduce((s, x) => s + (x - ma) ** 2, 0);
  const vb = b.reduce((s, x) => s + (x - mb) ** 2, 0);
  return va === 0 || vb === 0 ? null : cov / Math.sqrt(va * vb);
}
const naiveSpearman = (x: number[], y: number[]) => naivePearson(naiveRanks(x), naiveRanks(y));
/** Every pair once: concordant, discordant, tied in x, tied in y. */
function naiveKendall(x: number[], y: number[]): number | null {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  let all = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      all++;
      const s = Math.sign(x[j]! - x[i]!) * Math.sign(y[j]! - y[i]!);
      if (x[i] === x[j]) tx++;
      if (y[i] === y[j]) ty++;
      if (s > 0) c++;
      if (s < 0) d++;
    }
  }
  return tx === all || ty === all ? null : (c - d) / Math.sqrt((all - tx) * (all - ty));
}
/** κ from the k×k table of shares with explicit weight matrix. */
function naiveKappa(a: number[], b: number[], k: number, weight: (i: number, j: number) => number): number | null {
  const n = a.length;
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  a.forEach((ai, t) => (table[ai]![b[t]!]! += 1 / n));
  const row = table.map((r) => r.reduce((s, x) => s + x, 0));
  const col = table[0]!.map((_, j) => table.reduce((s, r) => s + r[j]!, 0));
  if (row.filter((r) => r > 0).length < 2 || col.filter((c) => c > 0).length < 2) return null;
  let o = 0;
  let e = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      o += weight(i, j) * table[i]![j]!;
      e += weight(i, j) * row[i]! * col[j]!;
    }
  return 1 - o / e;
}
const nominal = (i: number, j: number) => (i === j ? 0 : 1);
const linear = (i: number, j: number) => Math.abs(i - j) / 2;
const quadratic = (i: number, j: number) => ((i - j) / 2) ** 2;

describe('the estimators on a hand-computed table', () => {
  // Six pairs, ties on both sides; threshold 0.85, cuts 0.25 / 0.75.
  //   i      1    2    3    4    5    6
  //   judge 1.0  0.8  0.8  0.4  0.0  1.0
  //   human 1.0  1.0  0.5  0.5  0.0  0.5
  const judge = [1.0, 0.8, 0.8, 0.4, 0.0, 1.0];
  const human = [1.0, 1.0, 0.5, 0.5, 0.0, 0.5];

  it("Spearman's ρ on average ranks", () => {
    // judge ranks: 0.0→1, 0.4→2, 0.8→(3+4)/2=3.5, 1.0→(5+6)/2=5.5   → [5.5, 3.5, 3.5, 2, 1, 5.5]
    // human ranks: 0.0→1, 0.5→(2+3+4)/3=3, 1.0→(5+6)/2=5.5            → [5.5, 5.5, 3, 3, 1, 3]
    // deviations from the mean rank 3.5: dx = [2, 0, 0, −1.5, −2.5, 2], dy = [2, 2, −0.5, −0.5, −2.5, −0.5]
    // Σdx·dy = 4 + 0 + 0 + 0.75 + 6.25 − 1 = 10;  Σdx² = 16.5;  Σdy² = 15
    // ρ = 10 / √(16.5 · 15) = 10 / √247.5 = 0.635642…
    expect(Array.from(averageRanks(judge))).toEqual([5.5, 3.5, 3.5, 2, 1, 5.5]);
    expect(Array.from(averageRanks(human))).toEqual([5.5, 5.5, 3, 3, 1, 3]);
    expect(value(spearman(judge, human))).toBeCloseTo(10 / Math.sqrt(247.5), 12);
    expect(value(spearman(judge, human))).toBeCloseTo(0.635642, 6);
  });

  it("Kendall's τ-b with ties on both sides", () => {
    // The 15 pairs (i, j): C concordant, D discordant, Tj tied in judge, Th tied in human.
    //   (1,2) Th  (1,3) C  (1,4) C  (1,5) C  (1,6) Tj
    //   (2,3) Tj  (2,4) C  (2,5) C  (2,6) D  (3,4) Th
    //   (3,5) C   (3,6) Th (4,5) C  (4,6) Th (5,6) C
    // C = 8, D = 1, n₁ (tied in judge) = 2, n₂ (tied in human) = 4, n₀ = 15
    // τ_b = (8 − 1) / √((15 − 2)(15 − 4)) = 7 / √143 = 0.585369…
    expect(value(kendallTauB(judge, human))).toBeCloseTo(7 / Math.sqrt(143), 12);
    expect(value(kendallTauB(judge, human))).toBeCloseTo(0.585369, 6);
  });

  it('mean absolute error', () => {
    // |Δ| = 0, 0.2, 0.3, 0.1, 0, 0.5 → 1.1 / 6 = 0.183333…
    expect(value(meanAbsoluteError(judge, human))).toBeCloseTo(1.1 / 6, 12);
  });

  it("Cohen's κ on pass/fail at 0.85", () => {
    // judge passes [1, 0, 0, 0, 0, 1], people pass [1, 1, 0, 0, 0, 0] (0.5 fails)
    //                 human pass  human fail
    //   judge pass        1           1
    //   judge fail        1           3
    // p_o = 4/6;  p_e = (2/6)(2/6) + (4/6)(4/6) = 20/36;  κ = (24/36 − 20/36) / (16/36) = 0.25
    expect(value(passFailKappa(codes(judge, pass), codes(human, pass)))).toBeCloseTo(0.25, 12);
  });

  it('weighted κ on the three levels, linear and quadratic', () => {
    // judge levels [2, 2, 2, 1, 0, 2], human levels [2, 2, 1, 1, 0, 1]
    // observed counts: (2,2)=2, (2,1)=2, (1,1)=1, (0,0)=1;  judge margin [1, 1, 4], human margin [1, 3, 2]
    // expected counts r_i·c_j/6:  [1, 3, 2]/6,  [1, 3, 2]/6,  [4, 12, 8]/6
    // linear w (|i−j|/2):     Σw·O = 2·0.5 = 1;   Σw·E = (0.5·3 + 1·2 + 0.5·1 + 0.5·2 + 1·4 + 0.5·12)/6 = 15/6
    //                         κ_w = 1 − 1 / 2.5 = 0.6
    // quadratic w ((i−j)²/4): Σw·O = 2·0.25 = 0.5;  Σw·E = (0.25·3 + 2 + 0.25·1 + 0.25·2 + 4 + 0.25·12)/6 = 10.5/6
    //                         κ_w = 1 − 0.5 / 1.75 = 5/7 = 0.714285…
    const jl = codes(judge, level);
    const hl = codes(human, level);
    expect(jl).toEqual([2, 2, 2, 1, 0, 2]);
    expect(hl).toEqual([2, 2, 1, 1, 0, 1]);
    expect(value(linearWeightedKappa(jl, hl))).toBeCloseTo(0.6, 12);
    expect(value(quadraticWeightedKappa(jl, hl))).toBeCloseTo(5 / 7, 12);
  });

  it("Cohen's κ on the textbook 2×2 table (20, 5 / 10, 15 of 50)", () => {
    // p_o = 35/50 = 0.7; rater A says yes 25/50, rater B 30/50; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5 = 0.4
    const a = [...Array(20).fill(1), ...Array(5).fill(1), ...Array(10).fill(0), ...Array(15).fill(0)];
    const b = [...Array(20).fill(1), ...Array(5).fill(0), ...Array(10).fill(1), ...Array(15).fill(0)];
    expect(value(passFailKappa(a, b))).toBeCloseTo(0.4, 12);
  });

  it('rank the same through dense codes (the counting-sort path)', () => {
    expect(Array.from(denseCodes(judge))).toEqual([3, 2, 2, 1, 0, 3]);
    expect(Array.from(averageRanks(denseCodes(judge)))).toEqual([5.5, 3.5, 3.5, 2, 1, 5.5]);
    expect(value(spearman(denseCodes(judge), denseCodes(human)))).toBeCloseTo(0.635642, 6);
    expect(value(kendallTauB(denseCodes(judge), denseCodes(human)))).toBeCloseTo(0.585369, 6);
  });

  it('the naive implementations agree with the hand computation too', () => {
    expect(naiveSpearman(judge, human)).toBeCloseTo(0.635642, 6);
    expect(naiveKendall(judge, human)).toBeCloseTo(0.585369, 6);
    expect(naiveKappa(codes(judge, pass), codes(human, pass), 2, nominal)).toBeCloseTo(0.25, 12);
    expect(naiveKappa(codes(judge, level), codes(human, level), 3, linear)).toBeCloseTo(0.6, 12);
    expect(naiveKappa(codes(judge, level), codes(human, level), 3, quadratic)).toBeCloseTo(5 / 7, 12);
  });
});

interface ReferenceCase {
  name: string;
  judge: number[];
  human: number[];
  spearman: number | null;
  kendall_tau_b: number | null;
  mae: number;
  kappa: number | null;
  weighted_kappa_linear: number | null;
  weighted_kappa_quadratic: number | null;
}
const reference = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/calibrate/reference.json'), 'utf8')) as {
  cases: ReferenceCase[];
};

describe('the estimators against scipy and scikit-learn (test/fixtures/calibrate/reference.py)', () => {
  const orNull = (e: Estimate) => (e.estimable ? e.value : null);
  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const near = (actual: number | null, expected: number | null) => {
      if (expected === null) expect(actual).toBeNull();
      else expect(actual).toBeCloseTo(expected, 10);
    };
    near(orNull(spearman(c.judge, c.human)), c.spearman);
    near(orNull(kendallTauB(c.judge, c.human)), c.kendall_tau_b);
    near(orNull(meanAbsoluteError(c.judge, c.human)), c.mae);
    near(orNull(passFailKappa(codes(c.judge, pass), codes(c.human, pass))), c.kappa);
    near(orNull(linearWeightedKappa(codes(c.judge, level), codes(c.human, level))), c.weighted_kappa_linear);
    near(orNull(quadraticWeightedKappa(codes(c.judge, level), codes(c.human, level))), c.weighted_kappa_quadratic);
  });

  it('covers small and large n, heavy ties and the degenerate sets', () => {
    expect(reference.cases.length).toBeGreaterThanOrEqual(25);
    expect(reference.cases.some((c) => c.judge.length >= 150)).toBe(true);
    expect(reference.cases.filter((c) => c.kappa === null).length).toBeGreaterThanOrEqual(3);
  });
});

describe('the estimators against the naive implementations, on drawn data', () => {
  // Few distinct values so ties are the rule, as with claim shares and three levels.
  const score = fc.constantFrom(0, 0.2, 0.25, 0.5, 0.6, 0.75, 0.8, 0.85, 0.9, 1);
  const pairs = fc.array(fc.tuple(score, fc.oneof(score, fc.double({ min: 0, max: 1, noNaN: true }))), {
    minLength: 0,
    maxLength: 60,
  });
  const near = (actual: Estimate, expected: number | null) => {
    if (expected === null) expect(actual.estimable).toBe(false);
    else expect(value(actual)).toBeCloseTo(expected, 10);
  };

  it('ρ, τ-b, κ and weighted κ match, or are not estimable exactly where the definitions divide by 0', () => {
    fc.assert(
      fc.property(pairs, (ps) => {
        const x = ps.map((p) => p[0]);
        const y = ps.map((p) => p[1]);
        const few = ps.length < 2;
        near(spearman(x, y), few ? null : naiveSpearman(x, y));
        near(kendallTauB(x, y), few ? null : naiveKendall(x, y));
        // The counting-sort path the bootstrap takes: the same columns as dense codes.
        near(spearman(denseCodes(x), denseCodes(y)), few ? null : naiveSpearman(x, y));
        near(kendallTauB(denseCodes(x), denseCodes(y)), few ? null : naiveKendall(x, y));
        near(kendallTauB(denseCodes(x), y), few ? null : naiveKendall(x, y));
        const xp = codes(x, pass);
        const yp = codes(y, pass);
        near(passFailKappa(xp, yp), few ? null : naiveKappa(xp, yp, 2, nominal));
        const xl = codes(x, level);
        const yl = codes(y, level);
        near(linearWeightedKappa(xl, yl), few ? null : naiveKappa(xl, yl, 3, linear));
        near(quadraticWeightedKappa(xl, yl), few ? null : naiveKappa(xl, yl, 3, quadratic));
      }),
      { numRuns: 300 },
    );
  });

  it('never answer NaN: a finite value in range, or a reason', () => {
    const anyScore = fc.oneof(score, fc.double({ min: 0, max: 1, noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.tuple(anyScore, anyScore), { maxLength: 30 }), (ps) => {
        const x = ps.map((p) => p[0]);
        const y = ps.map((p) => p[1]);
        const all: Array<[Estimate, number, number]> = [
          [spearman(x, y), -1, 1],
          [kendallTauB(x, y), -1, 1],
          [meanAbsoluteError(x, y), 0, 1],
          [passFailKappa(codes(x, pass), codes(y, pass)), -1, 1],
          [linearWeightedKappa(codes(x, level), codes(y, level)), -1, 1],
        ];
        for (const [e, lo, hi] of all) {
          if (e.estimable) {
            expect(Number.isFinite(e.value)).toBe(true);
            expect(e.value).toBeGreaterThanOrEqual(lo);
            expect(e.value).toBeLessThanOrEqual(hi);
          } else expect(e.reason).toMatch(/\w/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('are symmetric in the raters and blind to the order of the pairs; ρ and τ follow monotone transforms', () => {
    fc.assert(
      fc.property(pairs, fc.integer({ min: 0, max: 1000 }), (ps, seed) => {
        const x = ps.map((p) => p[0]);
        const y = ps.map((p) => p[1]);
        const shuffled = [...ps].sort(
          (a, b) => Math.sin(seed + a[0] * 7 + a[1] * 13) - Math.sin(seed + b[0] * 7 + b[1] * 13),
        );
        const sx = shuffled.map((p) => p[0]);
        const sy = shuffled.map((p) => p[1]);
        const same = (a: Estimate, b: Estimate) => {
          expect(a.estimable).toBe(b.estimable);
          if (a.estimable && b.estimable) expect(a.value).toBeCloseTo(b.value, 12);
        };
        same(spearman(x, y), spearman(y, x));
        same(kendallTauB(x, y), kendallTauB(y, x));
        same(spearman(x, y), spearman(sx, sy));
        same(kendallTauB(x, y), kendallTauB(sx, sy));
        same(
          quadraticWeightedKappa(codes(x, level), codes(y, level)),
          quadraticWeightedKappa(codes(y, level), codes(x, level)),
        );
        same(passFailKappa(codes(x, pass), codes(y, pass)), passFailKappa(codes(sx, pass), codes(sy, pass)));
        // x ↦ x³ keeps the order: ranks, hence ρ and τ, are unchanged.
        same(
          spearman(x, y),
          spearman(
            x.map((v) => v ** 3),
            y,
          ),
        );
        same(
          kendallTauB(x, y),
          kendallTauB(
            x.map((v) => v ** 3),
            y,
          ),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('degenerate inputs are not estimable, with a reason', () => {
  it('below two pairs', () => {
    for (const e of [
      spearman([], []),
      kendallTauB([0.5], [0.5]),
      meanAbsoluteError([0.5], [1]),
      passFailKappa([1], [1]),
    ]) {
      expect(e).toEqual({ estimable: false, reason: expect.stringMatching(/at least 2/) });
    }
  });

  it('when either side is constant (ρ, τ) or one class only (κ)', () => {
    expect(spearman([1, 1, 1], [0, 0.5, 1])).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/judge/),
    });
    expect(kendallTauB([0, 0.5, 1], [0.5, 0.5, 0.5])).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/people/),
    });
    expect(passFailKappa([1, 1, 1, 1], [1, 0, 1, 1])).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/judge put every pair in pass/),
    });
    expect(passFailKappa([1, 0, 1], [0, 0, 0])).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/people put every pair in fail/),
    });
    // Both in the same class: the denominator (expected disagreement) is 0.
    expect(linearWeightedKappa([2, 2, 2], [2, 2, 2])).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/both|judge and people/),
    });
  });

  it('rejects codes outside the categories (a caller bug, never a figure)', () => {
    expect(() => passFailKappa([0, 2], [0, 1])).toThrow(/category codes/);
    expect(() => kappaEstimator(1, 'nominal', [])).toThrow(/at least 2 categories/);
  });
});
