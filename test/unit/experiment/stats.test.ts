import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval, comparePaired, quantile, summarize } from '../../../src/experiment/stats.js';

const opts = { samples: 2000, seed: 42 };

describe('summarize', () => {
  it('has no mean and no interval without data', () => {
    expect(summarize([], opts)).toEqual({ n: 0, mean: null, ci: null });
  });

  it('gives a degenerate interval for one value', () => {
    expect(summarize([0.7], opts)).toEqual({ n: 1, mean: 0.7, ci: { low: 0.7, high: 0.7 } });
  });

  it('is reproducible for the same seed and changes with another seed', () => {
    const values = [0.1, 0.9, 0.5, 0.7, 0.3, 0.8, 0.2];
    expect(bootstrapMeanInterval(values, opts)).toEqual(bootstrapMeanInterval(values, opts));
    expect(bootstrapMeanInterval(values, opts)).not.toEqual(bootstrapMeanInterval(values, { ...opts, seed: 7 }));
  });

  it('brackets the mean inside the range of the data', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 }), (values) => {
        const s = summarize(values, { samples: 300, seed: 1 });
        const min = Math.min(...values);
        const max = Math.max(...values);
        expect(s.ci!.low).toBeGreaterThanOrEqual(min - 1e-12);
        expect(s.ci!.high).toBeLessThanOrEqual(max + 1e-12);
        expect(s.ci!.low).toBeLessThanOrEqual(s.mean! + 1e-12);
        expect(s.ci!.high).toBeGreaterThanOrEqual(s.mean! - 1e-12);
      }),
    );
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
    const noisier = new Map([...base].map(([id, v]) => [id, v + 0.1]));
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
