import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, derivedSeed, type BootstrapInterval } from '../../../src/calibrate/bootstrap.js';
import type { NotEstimable } from '../../../src/calibrate/estimate.js';
import { passFailKappa } from '../../../src/calibrate/kappa.js';
import { meanAbsoluteError } from '../../../src/calibrate/mae.js';
import { moreAnnotationsForWidth, moreAnnotationsToHalve } from '../../../src/calibrate/precision.js';
import { createRng } from '@ragwatch/devkit/corpus/random.js';

const options = { resamples: 1000, seed: 42, level: 0.95 };
const interval = (r: BootstrapInterval | NotEstimable): BootstrapInterval => {
  if ('estimable' in r) throw new Error(r.reason);
  return r;
};

describe('bootstrapIntervals', () => {
  const judge = [1, 0.8, 0.8, 0.4, 0, 1, 0.5, 0.9, 0.2, 0.7];
  const human = [1, 1, 0.5, 0.5, 0, 0.5, 0.5, 1, 0, 1];
  const target = { x: judge, y: human, estimator: meanAbsoluteError };

  it('is reproducible for a seed and moves with another seed', () => {
    const a = interval(bootstrapIntervals(10, [target], options)[0]!);
    expect(interval(bootstrapIntervals(10, [target], options)[0]!)).toEqual(a);
    expect(interval(bootstrapIntervals(10, [target], { ...options, seed: 7 })[0]!)).not.toEqual(a);
    expect(a).toMatchObject({ level: 0.95, resamples: 1000, estimableResamples: 1000, seed: 42 });
    expect(a.width).toBeCloseTo(a.high - a.low, 15);
  });

  it('evaluates every target on the same resamples', () => {
    const [one, two] = bootstrapIntervals(10, [target, target], options);
    expect(two).toEqual(one);
  });

  it('keeps the interval of a mean inside the data and around the estimate', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 30 }), (gaps) => {
        const zeros = gaps.map(() => 0);
        const ci = interval(
          bootstrapIntervals(gaps.length, [{ x: gaps, y: zeros, estimator: meanAbsoluteError }], {
            ...options,
            resamples: 200,
          })[0]!,
        );
        const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
        expect(ci.low).toBeGreaterThanOrEqual(Math.min(...gaps) - 1e-12);
        expect(ci.high).toBeLessThanOrEqual(Math.max(...gaps) + 1e-12);
        expect(ci.low).toBeLessThanOrEqual(mean + 1e-12);
        expect(ci.high).toBeGreaterThanOrEqual(mean - 1e-12);
      }),
      { numRuns: 100 },
    );
  });

  it('gives no interval below two pairs', () => {
    expect(bootstrapIntervals(1, [target], options)).toEqual([
      { estimable: false, reason: expect.stringMatching(/fewer than 2/) },
    ]);
  });

  it('withholds the interval when more than 5 % of the resamples cannot be estimated', () => {
    // One failing item of 20: a resample misses it with probability (19/20)^20 ≈ 36 %, and κ is then not estimable.
    const judgePass = [0, ...Array(19).fill(1)];
    const humanPass = [0, 0, ...Array(18).fill(1)];
    const [r] = bootstrapIntervals(20, [{ x: judgePass, y: humanPass, estimator: passFailKappa }], options);
    expect(r).toMatchObject({
      estimable: false,
      reason: expect.stringMatching(/^3\d % of the resamples could not be estimated/),
    });
    // Ten of each class: a resample almost never has one class only.
    const balanced = Array.from({ length: 20 }, (_, i) => i % 2);
    const ok = interval(
      bootstrapIntervals(
        20,
        [{ x: balanced, y: balanced.map((v, i) => (i < 3 ? 1 - v : v)), estimator: passFailKappa }],
        options,
      )[0]!,
    );
    expect(ok.estimableResamples).toBeGreaterThan(950);
  });

  it('rejects options that would not make an interval', () => {
    expect(() => bootstrapIntervals(10, [target], { ...options, resamples: 50 })).toThrow(
      /resamples must be an integer of at least 100/,
    );
    expect(() => bootstrapIntervals(10, [target], { ...options, level: 1 })).toThrow(/level must be in \(0, 1\)/);
    expect(() => bootstrapIntervals(10, [target], { ...options, seed: 1.5 })).toThrow(/seed must be an integer/);
  });

  it('narrows as 1/√n: four times the pairs, about half the width', () => {
    // The law behind "how many more annotations would halve the width" (precision.ts), checked on drawn data:
    // the mean width over 20 data sets at n = 50 and at n = 200.
    const width = (n: number) => {
      let sum = 0;
      for (let s = 0; s < 20; s++) {
        const rng = createRng(`width/${n}/${s}`);
        const j = Array.from({ length: n }, () => rng.next());
        const h = j.map((v) => (rng.chance(0.6) ? v : rng.next()));
        sum += interval(
          bootstrapIntervals(n, [{ x: j, y: h, estimator: meanAbsoluteError }], {
            ...options,
            resamples: 400,
            seed: s,
          })[0]!,
        ).width;
      }
      return sum / 20;
    };
    const ratio = width(200) / width(50);
    expect(ratio).toBeGreaterThan(0.42);
    expect(ratio).toBeLessThan(0.58);
  });
});

describe('derivedSeed', () => {
  it('is stable, differs between keys and between base seeds, and stays a 32-bit integer', () => {
    expect(derivedSeed(42, 'faithfulness')).toBe(derivedSeed(42, 'faithfulness'));
    expect(derivedSeed(42, 'faithfulness')).not.toBe(derivedSeed(42, 'answer_relevancy'));
    expect(derivedSeed(42, 'faithfulness')).not.toBe(derivedSeed(43, 'faithfulness'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.string(), (seed, key) => {
        const d = derivedSeed(seed, key);
        expect(Number.isInteger(d) && d >= 0 && d < 2 ** 32).toBe(true);
      }),
    );
  });
});

describe('how many more annotations', () => {
  it('halving the width takes 3n more, whatever the width', () => {
    // w ∝ 1/√n, so w/2 needs 4n pairs: 3n more.
    expect(moreAnnotationsToHalve(40, 0.31)).toBe(120);
    expect(moreAnnotationsToHalve(1, 1.2)).toBe(3);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 1e-6, max: 2, noNaN: true }), (n, w) => {
        expect(moreAnnotationsToHalve(n, w)).toBe(3 * n);
      }),
    );
  });

  it('a target width takes n·((w / target)² − 1) more, rounded up; none once there', () => {
    expect(moreAnnotationsForWidth(100, 0.4, 0.2)).toBe(300);
    expect(moreAnnotationsForWidth(100, 0.3, 0.2)).toBe(125); // 100 · 2.25 = 225 in all
    expect(moreAnnotationsForWidth(50, 0.21, 0.2)).toBe(6); // 50 · 1.1025 = 55.1 → 56 in all
    expect(moreAnnotationsForWidth(100, 0.2, 0.2)).toBe(0);
    expect(moreAnnotationsForWidth(100, 0.1, 0.2)).toBe(0);
  });

  it('says nothing for a zero width (resamples that never varied) or nonsense input', () => {
    expect(moreAnnotationsToHalve(10, 0)).toBeNull();
    expect(moreAnnotationsForWidth(0, 0.3, 0.2)).toBeNull();
    expect(moreAnnotationsForWidth(10, Number.NaN, 0.2)).toBeNull();
    expect(moreAnnotationsForWidth(10, 0.3, 0)).toBeNull();
  });
});
