import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePaired, summarize, summarizeShare } from '../../../src/experiment/stats.js';
import { quantile } from '../../../src/quantile.js';

const opts = { samples: 2000, seed: 42 };

describe('summarize', () => {
  it('has no mean and no interval without data', () => {
    expect(summarize([], opts)).toEqual({ n: 0, mean: null, ci: null });
  });

  it('gives one value an interval that says how little one value shows (never [0.7, 0.7])', () => {
    const s = summarize([0.7], opts);
    expect(s).toMatchObject({ n: 1, mean: 0.7, ci: { method: 'unseen-share' } });
    expect(s.ci!.low).toBeLessThan(0.1);
    expect(s.ci!.high).toBeGreaterThan(0.99);
  });

  it('is reproducible for the same seed and changes with another seed (BCa from 10 values)', () => {
    const values = [0.1, 0.9, 0.5, 0.7, 0.3, 0.8, 0.2, 0.65, 0.4, 0.55, 0.95, 0.05];
    expect(summarize(values, opts)).toEqual(summarize(values, opts));
    expect(summarize(values, opts).ci!.method).toBe('bca');
    expect(summarize(values, opts)).not.toEqual(summarize(values, { ...opts, seed: 7 }));
  });

  it('brackets the mean inside [0, 1] with a positive width', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }), (values) => {
        const s = summarize(values, { samples: 300, seed: 1 });
        expect(s.ci!.low).toBeGreaterThanOrEqual(0);
        expect(s.ci!.high).toBeLessThanOrEqual(1);
        expect(s.ci!.high - s.ci!.low).toBeGreaterThan(0);
        expect(s.ci!.low).toBeLessThanOrEqual(s.mean! + 1e-12);
        expect(s.ci!.high).toBeGreaterThanOrEqual(s.mean! - 1e-12);
      }),
    );
  });

  it('gives a share of 0 of 14 items an interval reaching past 0.2 (Wilson), not [0, 0]', () => {
    const s = summarizeShare(0, 14);
    expect(s).toMatchObject({ n: 14, mean: 0, ci: { low: 0, method: 'wilson' } });
    expect(s.ci!.high).toBeGreaterThan(0.2);
    expect(summarizeShare(0, 0)).toEqual({ n: 0, mean: null, ci: null });
  });

  it('narrows as n grows', () => {
    const small = summarize([0, 1, 0, 1], opts).ci!;
    const large = summarize(
      Array.from({ length: 400 }, (_, i) => i % 2),
      opts,
    ).ci!;
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
  });
});

describe('quantile', () => {
  it('interpolates linearly', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([1, 2, 3], 0.5)).toBe(2);
  });
});

describe('comparePaired', () => {
  const items = Array.from({ length: 30 }, (_, i) => `item-${i}`);
  const base = new Map(items.map((id, i) => [id, 0.6 + (i % 5) * 0.08]));

  it('flags nothing for an unchanged rerun', () => {
    const c = comparePaired(base, new Map(base), { ...opts, higherIsBetter: true });
    expect(c).toMatchObject({ n: 30, meanDelta: 0, regression: false, improvement: false });
  });

  it('flags a consistent drop as a regression when higher is better', () => {
    const worse = new Map([...base].map(([id, v], i) => [id, v - 0.2 + (i % 3) * 0.02]));
    const c = comparePaired(base, worse, { ...opts, higherIsBetter: true });
    expect(c.regression).toBe(true);
    expect(c.ci!.high).toBeLessThan(0);
  });

  it('reads a rise as a regression when lower is better', () => {
    const noisier = new Map([...base].map(([id, v], i) => [id, v + 0.08 + (i % 3) * 0.02]));
    expect(comparePaired(base, noisier, { ...opts, higherIsBetter: false }).regression).toBe(true);
    expect(comparePaired(base, noisier, { ...opts, higherIsBetter: true }).improvement).toBe(true);
  });

  it('pairs only items present in both runs', () => {
    const current = new Map([
      ['item-0', 1],
      ['new-item', 0],
    ]);
    expect(comparePaired(base, current, { ...opts, higherIsBetter: true }).n).toBe(1);
  });

  it('does not flag noise around zero', () => {
    const jitter = new Map([...base].map(([id, v], i) => [id, v + (i % 2 === 0 ? 0.05 : -0.05)]));
    expect(comparePaired(base, jitter, { ...opts, higherIsBetter: true }).regression).toBe(false);
  });
});
