import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MIN_BOOTSTRAP_N,
  meanInterval,
  normalCdf,
  normalQuantile,
  proportionInterval,
  unseenShare,
} from '../../../src/stats/index.js';

interface Reference {
  proportions: Array<{ k: number; n: number; level: number; wilson: [number, number]; exact: [number, number] }>;
  normal: { quantiles: Array<{ p: number; z: number }>; cdfs: Array<{ x: number; cdf: number }> };
  bca: Array<{ shape: string; bounds: [number, number]; values: number[]; level: number; bca: [number, number] }>;
}

const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/stats/reference.json', import.meta.url), 'utf8'),
) as Reference;

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('the normal distribution, against scipy.stats.norm', () => {
  it.each(reference.normal.quantiles)('Φ⁻¹($p)', ({ p, z }) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 10);
  });
  it.each(reference.normal.cdfs)('Φ($x)', ({ x, cdf }) => {
    expect(Math.abs(normalCdf(x) - cdf)).toBeLessThan(1e-13 + 1e-12 * cdf);
  });
});

describe("Wilson's interval of k of n, against scipy's binomtest(k, n).proportion_ci", () => {
  it.each(reference.proportions)('$k of $n at $level', ({ k, n, level, wilson }) => {
    const got = proportionInterval(k, n, level);
    expect(got.low).toBeCloseTo(wilson[0], 12);
    expect(got.high).toBeCloseTo(wilson[1], 12);
  });

  it('0 of 14 adversarial items is not a certainty: the 95 % interval reaches past 0.2', () => {
    const { low, high } = proportionInterval(0, 14);
    expect(low).toBe(0);
    expect(high).toBeGreaterThan(0.2);
  });

  it('refuses what is not a count', () => {
    expect(() => proportionInterval(3, 2)).toThrow(RangeError);
    expect(() => proportionInterval(0.5, 2)).toThrow(RangeError);
    expect(() => proportionInterval(0, 0)).toThrow(RangeError);
  });
});

describe("the unseen share is Clopper–Pearson's bound for 0 of n (scipy, method='exact')", () => {
  const zeroOfN = reference.proportions.filter((r) => r.k === 0);
  it.each(zeroOfN)('0 of $n at $level', ({ n, level, exact }) => {
    expect(unseenShare(n, level)).toBeCloseTo(exact[1], 12);
  });
});

describe('the interval of a mean of bounded values', () => {
  const bca = reference.bca;

  it.each(bca.map((r, i) => ({ ...r, i, n: r.values.length })))(
    'BCa matches scipy.stats.bootstrap: $shape, n = $n, level $level',
    ({ values, bounds, level, bca: [low, high], i }) => {
      const got = meanInterval(values, { resamples: 20_000, seed: 1000 + i, level, bounds })!;
      expect(got.method).toBe('bca');
      // The resampling differs (scipy's generator, ours): the endpoints agree to their Monte Carlo error, plus
      // one step of the lattice resample means live on when the values are few and discrete (scipy's own
      // endpoint for [0, 0.5, 1 × 8] moves between 0.5 and 0.55 from seed to seed).
      const distinct = [...new Set(values)].sort((a, b) => a - b);
      const gap = Math.min(...distinct.slice(1).map((v, k) => v - distinct[k]!));
      const tolerance = Math.max(0.004, 0.04 * (high - low)) + gap / values.length;
      expect(Math.abs(got.low - low)).toBeLessThan(tolerance);
      expect(Math.abs(got.high - high)).toBeLessThan(tolerance);
    },
  );

  it('the same seed and values give the same interval', () => {
    const values = bca[0]!.values;
    expect(meanInterval(values, { resamples: 2000, seed: 7 })).toEqual(
      meanInterval(values, { resamples: 2000, seed: 7 }),
    );
  });

  it.each([1, 2, 5, 10, 14, 200])('a constant sample of %i keeps a width: the share n draws can miss', (n) => {
    for (const c of [0, 0.4, 1]) {
      const got = meanInterval(Array(n).fill(c), { resamples: 2000, seed: 1 })!;
      expect(got.method).toBe('unseen-share');
      const u = unseenShare(n);
      expect(got.low).toBeCloseTo(c - u * c, 12);
      expect(got.high).toBeCloseTo(c + u * (1 - c), 12);
      expect(got.high - got.low).toBeGreaterThan(0);
    }
  });

  it('14 scores of 0 give [0, 0.232] (Clopper–Pearson for 0 of 14), not [0, 0]', () => {
    const got = meanInterval(Array(14).fill(0), { resamples: 2000, seed: 1 })!;
    const exact = reference.proportions.find((r) => r.k === 0 && r.n === 14 && r.level === 0.95)!.exact;
    expect(got.low).toBe(0);
    expect(got.high).toBeCloseTo(exact[1], 12);
  });

  it('paired differences all 0 over 200 items stay near 0 in [−1, 1]', () => {
    const got = meanInterval(Array(200).fill(0), { resamples: 2000, seed: 1, bounds: [-1, 1] })!;
    expect(got.low).toBeCloseTo(-unseenShare(200), 12);
    expect(got.high).toBeCloseTo(unseenShare(200), 12);
  });

  it.each([[[0.2, 0.9]], [[1, 1, 1, 0.5, 1]], [[0, 0.25, 0.5, 0.75, 1, 1, 1, 0.9, 0.8]]])(
    'below %s values: Wilson’s interval of the rescaled mean',
    (values) => {
      expect(values.length).toBeLessThan(MIN_BOOTSTRAP_N);
      const got = meanInterval(values, { resamples: 2000, seed: 1 })!;
      expect(got.method).toBe('wilson-bounded');
      // Wilson's score interval at the fractional share, computed here from its textbook form.
      const p = mean(values);
      const n = values.length;
      const z = 1.959963984540054;
      const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
      expect(got.low).toBeCloseTo(centre - half, 12);
      expect(got.high).toBeCloseTo(centre + half, 12);
    },
  );

  it('rescales Wilson’s interval to the bounds of paired differences', () => {
    const got = meanInterval([-0.5, 0.5, 1], { resamples: 2000, seed: 1, bounds: [-1, 1] })!;
    const p = (mean([-0.5, 0.5, 1]) + 1) / 2;
    const w = proportionIntervalAt(p, 3);
    expect(got.low).toBeCloseTo(-1 + 2 * w.low, 12);
    expect(got.high).toBeCloseTo(-1 + 2 * w.high, 12);
  });

  it('no values, no interval; a value outside the bounds is refused', () => {
    expect(meanInterval([], { resamples: 2000, seed: 1 })).toBeNull();
    expect(() => meanInterval([0.5, 1.2], { resamples: 2000, seed: 1 })).toThrow(RangeError);
    expect(() => meanInterval([0.5, Number.NaN], { resamples: 2000, seed: 1 })).toThrow(RangeError);
  });

  it('property: every sample of n ≥ 1 gets an interval of positive width, inside the bounds, around its mean', () => {
    const score = fc.oneof(
      fc.constantFrom(0, 1, 0.5),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 0, max: 6 }).map((k) => k / 6),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(score, { minLength: 1, maxLength: 40 }),
          fc.tuple(score, fc.integer({ min: 1, max: 300 })).map(([v, n]) => Array<number>(n).fill(v)),
        ),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (values, seed) => {
          const got = meanInterval(values, { resamples: 500, seed })!;
          const m = mean(values);
          expect(got.high - got.low).toBeGreaterThan(0);
          expect(got.low).toBeGreaterThanOrEqual(0);
          expect(got.high).toBeLessThanOrEqual(1);
          expect(got.low).toBeLessThanOrEqual(m + 1e-12);
          expect(got.high).toBeGreaterThanOrEqual(m - 1e-12);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: every k of n ≥ 1 gets a proportion interval of positive width around k/n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([k, n]) => {
          const { low, high } = proportionInterval(k, n);
          expect(high - low).toBeGreaterThan(0);
          expect(low).toBeLessThanOrEqual(k / n);
          expect(high).toBeGreaterThanOrEqual(k / n);
        },
      ),
      { numRuns: 500 },
    );
  });
});

function proportionIntervalAt(p: number, n: number) {
  const z = 1.959963984540054;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: centre - half, high: centre + half };
}
