import { describe, expect, it } from 'vitest';
import { averagePrecision, cosine, fraction, mean, unitInterval } from '../../../src/metrics/math.js';

describe('averagePrecision (RAGAS formula)', () => {
  it('is Σ precision@k·v_k / Σ v_k', () => {
    expect(averagePrecision([true, false, true])).toBeCloseTo((1 / 1 + 2 / 3) / 2, 12);
    expect(averagePrecision([true, true, false, true, false])).toBeCloseTo((1 + 1 + 3 / 4) / 3, 12);
    expect(averagePrecision([false, false, true])).toBeCloseTo(1 / 3, 12);
    expect(averagePrecision([true, true, true])).toBe(1);
  });

  it('is 0 when no chunk is useful, and for no chunks', () => {
    expect(averagePrecision([false, false])).toBe(0);
    expect(averagePrecision([])).toBe(0);
  });
});

describe('cosine', () => {
  it('computes the cosine and never NaN for zero vectors', () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });

  it('rejects vectors of different dimension', () => {
    expect(() => cosine([1, 0], [1, 0, 0])).toThrow(/dimension/);
  });
});

describe('small helpers', () => {
  it('returns undefined rather than NaN', () => {
    expect(mean([])).toBeUndefined();
    expect(fraction([])).toBeUndefined();
    expect(unitInterval(Number.NaN)).toBeUndefined();
    expect(unitInterval(1.5)).toBe(1);
    expect(fraction([true, false, true, true])).toBe(0.75);
  });
});
