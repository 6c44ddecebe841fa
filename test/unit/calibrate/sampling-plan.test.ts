import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportionCapped } from '../../../src/calibrate/apportion.js';
import { samplingPlan, SKIP, type EnqueueCandidate } from '../../../src/calibrate/sampling-plan.js';

const metrics = ['faithfulness', 'answer_relevancy'];

function candidate(i: number, over: Partial<EnqueueCandidate> = {}): EnqueueCandidate {
  return {
    traceId: `trace-${i}`,
    traceName: 'rag',
    language: i % 5 < 3 ? 'es' : 'en',
    origin: 'online',
    scores: { faithfulness: i % 7 === 0 ? 0.3 : 1, answer_relevancy: 0.9 },
    queued: false,
    ...over,
  };
}
const many = (n: number, over: (i: number) => Partial<EnqueueCandidate> = () => ({})) =>
  Array.from({ length: n }, (_, i) => candidate(i, over(i)));

describe('samplingPlan', () => {
  it('picks 2 % of the eligible traces, shared across strata in proportion to their sizes', () => {
    // 1000 traces: es 600 (86 with faithfulness partly), en 400 (57). Shares of 20: es 10.28 + 1.72, en 6.86 +
    // 1.14; floors 10, 1, 6, 1 leave 2 for the largest remainders (en supported .86, es partly .72).
    const plan = samplingPlan(many(1000), { seed: 1, metrics });
    expect(plan).toMatchObject({ eligible: 1000, target: 20, queued: 0 });
    expect(plan.picked).toHaveLength(20);
    const picked = Object.fromEntries(plan.strata.map((s) => [`${s.language}/${s.bucket}`, [s.candidates, s.picked]]));
    expect(picked).toEqual({
      'en/faithfulness=supported,answer_relevancy=supported': [343, 7],
      'en/faithfulness=partly,answer_relevancy=supported': [57, 1],
      'es/faithfulness=supported,answer_relevancy=supported': [514, 10],
      'es/faithfulness=partly,answer_relevancy=supported': [86, 2],
    });
  });

  it('stratifies by trace name and marks a metric without a score as none', () => {
    const plan = samplingPlan(
      many(100, (i) => ({ traceName: i < 50 ? 'chat' : 'search', scores: { faithfulness: 1 } })),
      { seed: 1, metrics, rate: 0.1 },
    );
    // 10 of 100: en 40 (20 chat, 20 search), es 60 (30, 30).
    expect(plan.strata.map((s) => [s.language, s.traceName, s.bucket, s.picked])).toEqual([
      ['en', 'chat', 'faithfulness=supported,answer_relevancy=none', 2],
      ['en', 'search', 'faithfulness=supported,answer_relevancy=none', 2],
      ['es', 'chat', 'faithfulness=supported,answer_relevancy=none', 3],
      ['es', 'search', 'faithfulness=supported,answer_relevancy=none', 3],
    ]);
  });

  it('stops at the weekly cap and picks at least one while there is any', () => {
    expect(samplingPlan(many(20_000), { seed: 1, metrics }).target).toBe(100);
    expect(samplingPlan(many(20_000), { seed: 1, metrics, weeklyCap: 30 }).picked).toHaveLength(30);
    expect(samplingPlan(many(10), { seed: 1, metrics }).picked).toHaveLength(1);
    expect(samplingPlan([], { seed: 1, metrics })).toMatchObject({ eligible: 0, target: 0, picked: [] });
  });

  it('is deterministic for a seed, blind to the order of the candidates, and moves with the seed', () => {
    const traces = many(500);
    const ids = (p: ReturnType<typeof samplingPlan>) => p.picked.map((c) => c.traceId).sort();
    const a = samplingPlan(traces, { seed: 7, metrics });
    expect(ids(samplingPlan([...traces].reverse(), { seed: 7, metrics }))).toEqual(ids(a));
    expect(ids(samplingPlan(traces, { seed: 8, metrics }))).not.toEqual(ids(a));
  });

  it('only tops up when run again: queued traces count toward their stratum and are never picked again', () => {
    const monday = many(1000);
    const first = samplingPlan(monday, { seed: 3, metrics });
    const queued = new Set(first.picked.map((c) => c.traceId));
    const again = samplingPlan(
      monday.map((c) => ({ ...c, queued: queued.has(c.traceId) })),
      { seed: 3, metrics },
    );
    expect(again.picked).toEqual([]);
    expect(again).toMatchObject({ target: 20, queued: 20 });
    // By Thursday the week has 2000 traces: 20 more, none of them already queued.
    const thursday = [...monday.map((c) => ({ ...c, queued: queued.has(c.traceId) })), ...many(2000).slice(1000)];
    const topUp = samplingPlan(thursday, { seed: 3, metrics });
    expect(topUp).toMatchObject({ target: 40, queued: 20 });
    expect(topUp.picked).toHaveLength(20);
    expect(topUp.picked.some((c) => queued.has(c.traceId))).toBe(false);
  });

  it('gives an over-served stratum nothing more and the others their shortfall', () => {
    // 30 Spanish traces queued by hand already; the target is 20 of 1000: nothing to pick.
    const traces = many(1000, (i) => ({ queued: i < 48 && i % 5 < 3 }));
    const plan = samplingPlan(traces, { seed: 3, metrics });
    expect(plan).toMatchObject({ target: 20, queued: 30, picked: [] });
    // Of 40 in 2000, es's share is 24 (30 queued: over) and en's 16: the 10 left all go to en.
    const bigger = samplingPlan([...traces, ...many(2000).slice(1000)], { seed: 3, metrics });
    const pickedIn = (language: string) =>
      bigger.strata.filter((s) => s.language === language).reduce((s, x) => s + x.picked, 0);
    expect(bigger.picked).toHaveLength(10);
    expect([pickedIn('es'), pickedIn('en')]).toEqual([0, 10]);
  });

  it('skips duplicates and traces without a score of a calibrated metric, counting them', () => {
    const traces = [
      ...many(50),
      candidate(3),
      candidate(99, { scores: { context_recall: 0.5 } }),
      candidate(98, { scores: { faithfulness: Number.NaN } }),
    ];
    const plan = samplingPlan(traces, { seed: 1, metrics });
    expect(plan.eligible).toBe(50);
    expect(plan.skipped).toEqual([
      { reason: SKIP.duplicate, count: 1 },
      { reason: SKIP.unscored, count: 2 },
    ]);
  });

  it('refuses options that make no plan, naming them', () => {
    expect(() => samplingPlan([], { seed: 1, metrics, rate: 0 })).toThrow(/rate must be in \(0, 1\]/);
    expect(() => samplingPlan([], { seed: 1, metrics, weeklyCap: 2.5 })).toThrow(/weeklyCap/);
    expect(() => samplingPlan([], { seed: 1, metrics: [] })).toThrow(/metrics must name/);
    expect(() =>
      samplingPlan([], { seed: 1, metrics, cuts: { faithfulness: { partly: 0.2, supported: 0.4 } } }),
    ).toThrow(/cuts.faithfulness.supported/);
  });

  it('on any week: picks only open traces, reaches min(target, eligible) with the queued ones, and keeps shares within one', () => {
    const week = fc.array(
      fc.record({
        language: fc.constantFrom('es', 'en', 'pt'),
        traceName: fc.constantFrom('rag', 'chat'),
        f: fc.option(fc.constantFrom(0, 0.3, 0.6, 0.8, 1), { nil: undefined }),
        a: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        queued: fc.boolean(),
      }),
      { maxLength: 400 },
    );
    fc.assert(
      fc.property(
        week,
        fc.double({ min: 0.005, max: 0.5, noNaN: true }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        (rows, rate, cap, noneQueued) => {
          const traces = rows.map((r, i) => {
            const scores: Record<string, number> = {};
            if (r.f !== undefined) scores.faithfulness = r.f;
            if (r.a !== undefined) scores.answer_relevancy = r.a;
            return candidate(i, {
              language: r.language,
              traceName: r.traceName,
              scores,
              queued: noneQueued ? false : r.queued,
            });
          });
          const plan = samplingPlan(traces, { seed: 11, metrics, rate, weeklyCap: cap });
          const eligible = traces.filter((t) => Object.keys(t.scores).length > 0);
          expect(plan.eligible).toBe(eligible.length);
          expect(plan.target).toBe(eligible.length === 0 ? 0 : Math.min(cap, Math.ceil(rate * eligible.length - 1e-9)));
          expect(plan.picked.every((c) => !c.queued)).toBe(true);
          expect(new Set(plan.picked.map((c) => c.traceId)).size).toBe(plan.picked.length);
          expect(plan.picked).toHaveLength(Math.max(0, plan.target - plan.queued));
          expect(plan.strata.reduce((s, x) => s + x.picked, 0)).toBe(plan.picked.length);
          if (noneQueued) {
            for (const s of plan.strata)
              expect(Math.abs(s.picked - (plan.target * s.candidates) / plan.eligible)).toBeLessThan(1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('apportionCapped', () => {
  it('shares by largest remainder, fills capped slots and shares the rest again', () => {
    expect(apportionCapped(10, [1, 1, 1], [10, 10, 10])).toEqual([4, 3, 3]);
    expect(apportionCapped(10, [8, 1, 1], [2, 10, 10])).toEqual([2, 4, 4]);
    expect(apportionCapped(10, [1, 1], [3, 3])).toEqual([3, 3]);
    expect(apportionCapped(4, [0, 0, 5], [5, 5, 0], [1, 3, 0])).toEqual([1, 3, 0]);
  });
});
