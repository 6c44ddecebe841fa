import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decide, rateFor, rateWarnings, TakeBudget } from '../../../src/online/sampler.js';
import { samplingPoint } from '../../../src/random.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `trace-${String(i + 1).padStart(4, '0')}`);

describe('samplingPoint', () => {
  it('matches the published test vectors', () => {
    expect(samplingPoint('trace-0001')).toBeCloseTo(0.89444, 6);
    const policy = { rate: 0.1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} };
    const sampled = ids(100).filter((id) => decide(policy, id, null).sampled);
    expect(sampled).toEqual(['trace-0004', 'trace-0009', 'trace-0065', 'trace-0072', 'trace-0083', 'trace-0085']);
  });

  it('agrees with a BigInt reading of the digest', () => {
    for (const id of ids(200)) {
      const digest = createHash('sha256').update(`other-salt\0${id}`).digest();
      const top53 = digest.readBigUInt64BE(0) >> 11n;
      expect(samplingPoint(id, 'other-salt')).toBe(Number(top53) / 2 ** 53);
    }
  });

  it('depends on the salt and lies in [0, 1)', () => {
    const a = ids(500).map((id) => samplingPoint(id, 'a'));
    const b = ids(500).map((id) => samplingPoint(id, 'b'));
    expect(a).not.toEqual(b);
    for (const u of [...a, ...b]) expect(u >= 0 && u < 1).toBe(true);
  });

  it('handles non-ASCII trace ids as UTF-8', () => {
    const digest = createHash('sha256').update(Buffer.from('s\0traza-ñ', 'utf8')).digest();
    expect(samplingPoint('traza-ñ', 's')).toBe(Number(digest.readBigUInt64BE(0) >> 11n) / 2 ** 53);
  });
});

describe('rates', () => {
  const policy = { rate: 0.05, salt: 's', rateByTraceName: { checkout: 0.5, noisy: 0 } };
  it('uses per-name rates when present', () => {
    expect(rateFor(policy, 'checkout')).toBe(0.5);
    expect(rateFor(policy, 'noisy')).toBe(0);
    expect(rateFor(policy, 'other')).toBe(0.05);
    expect(rateFor(policy, null)).toBe(0.05);
    expect(rateFor(policy, 'constructor')).toBe(0.05);
  });
  it('rate 0 samples nothing, rate 1 everything', () => {
    const none = { rate: 0, salt: 's', rateByTraceName: {} };
    const all = { rate: 1, salt: 's', rateByTraceName: {} };
    for (const id of ids(300)) {
      expect(decide(none, id, null).sampled).toBe(false);
      expect(decide(all, id, null).sampled).toBe(true);
    }
  });
  it('warns outside 5–10 %', () => {
    expect(rateWarnings({ rate: 0.07, salt: 's', rateByTraceName: {} })).toEqual([]);
    expect(rateWarnings({ rate: 0.05, salt: 's', rateByTraceName: { a: 0.1 } })).toEqual([]);
    const warnings = rateWarnings({ rate: 0.5, salt: 's', rateByTraceName: { a: 0.01 } });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/sampling\.rate is 0\.5/);
    expect(warnings[1]).toMatch(/"a"/);
  });
});

describe('TakeBudget', () => {
  it('stops at the per-tick cap', () => {
    const budget = TakeBudget.from({ maxPerTick: 3, maxPerHour: 100 }, 0);
    expect([1, 2, 3, 4].map(() => budget.tryTake())).toEqual([true, true, true, false]);
    expect(budget.exhausted).toBe(true);
    expect(budget.used).toBe(3);
  });
  it('counts what the last hour already took', () => {
    const budget = TakeBudget.from({ maxPerTick: 10, maxPerHour: 5 }, 4);
    expect(budget.tryTake()).toBe(true);
    expect(budget.tryTake()).toBe(false);
    expect(TakeBudget.from({ maxPerTick: 10, maxPerHour: 5 }, 9).tryTake()).toBe(false);
  });
});
