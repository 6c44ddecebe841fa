import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreementFigures, type AgreementFigure } from '../../../src/calibrate/agreement.js';
import { DEFAULT_CUTS } from '../../../src/calibrate/levels.js';
import { EXCLUSION, type AnnotatedPair } from '../../../src/calibrate/pairs.js';
import { AGREEMENT_STATISTICS } from '../../../src/calibrate/statistics.js';
import { agreementTable } from '../../../src/calibrate/table.js';
import { createRng } from '@ragwatch/devkit/corpus/random.js';

const judge = [1.0, 0.8, 0.8, 0.4, 0.0, 1.0];
const human = [1.0, 1.0, 0.5, 0.5, 0.0, 0.5];
const figureOptions = {
  threshold: 0.85,
  cuts: DEFAULT_CUTS,
  bootstrap: { resamples: 500, seed: 3, level: 0.95 },
  targetWidth: 0.2,
};
const byStatistic = (figures: AgreementFigure[]) => Object.fromEntries(figures.map((f) => [f.statistic, f]));

describe('agreementFigures', () => {
  it('gives every figure with its interval, n and the annotations to halve the width', () => {
    const cell = agreementFigures(judge, human, figureOptions);
    expect(cell.figures.map((f) => f.statistic)).toEqual([...AGREEMENT_STATISTICS]);
    const f = byStatistic(cell.figures);
    // Point estimates of the hand-computed table (estimators.test.ts).
    expect(f.spearman).toMatchObject({ estimable: true, n: 6, value: expect.closeTo(0.635642, 6) });
    expect(f.kendall_tau_b).toMatchObject({ value: expect.closeTo(0.585369, 6) });
    expect(f.mae).toMatchObject({ value: expect.closeTo(1.1 / 6, 12) });
    expect(f.kappa).toMatchObject({ value: expect.closeTo(0.25, 12) });
    expect(f.weighted_kappa_linear).toMatchObject({ value: expect.closeTo(0.6, 12) });
    expect(f.weighted_kappa_quadratic).toMatchObject({ value: expect.closeTo(5 / 7, 12) });
    for (const figure of cell.figures) {
      if (!figure.estimable) throw new Error(figure.reason);
      if (figure.interval === null) {
        // Six pairs: some κ resamples hold one class only; the interval is then withheld with the reason.
        expect(figure.intervalNote).toMatch(/resamples could not be estimated/);
        continue;
      }
      expect(figure.interval.low).toBeLessThanOrEqual(figure.interval.high);
      expect(figure.moreToHalveWidth).toBe(18);
      expect(figure.moreForTargetWidth).toBeGreaterThan(0);
    }
    expect(f.mae).toMatchObject({ interval: { resamples: 500, seed: 3 }, intervalNote: null });
    expect(cell).toMatchObject({
      n: 6,
      judgePassShare: 2 / 6,
      humanPassShare: 2 / 6,
      passAgreement: 4 / 6,
      levelAgreement: 4 / 6,
    });
  });

  it('computes only the figures asked for, in display order', () => {
    const cell = agreementFigures(judge, human, { ...figureOptions, statistics: ['mae', 'spearman'] });
    expect(cell.figures.map((f) => f.statistic)).toEqual(['spearman', 'mae']);
  });

  it('makes every figure not estimable, with the reason, below two pairs', () => {
    for (const n of [0, 1]) {
      const cell = agreementFigures(judge.slice(0, n), human.slice(0, n), figureOptions);
      for (const f of cell.figures)
        expect(f).toMatchObject({ estimable: false, n, reason: expect.stringMatching(/at least 2/) });
    }
    expect(agreementFigures([], [], figureOptions)).toMatchObject({
      judgePassShare: null,
      passAgreement: null,
      levelAgreement: null,
    });
  });

  it('flags an interval the resamples could not widen (perfect agreement on a few pairs)', () => {
    const scores = [0, 0.5, 1, 1, 0.5, 0, 1, 0.5];
    const f = byStatistic(agreementFigures(scores, scores, figureOptions).figures);
    expect(f.mae).toMatchObject({
      value: 0,
      interval: { low: 0, high: 0, width: 0 },
      moreToHalveWidth: null,
      moreForTargetWidth: null,
    });
    expect(f.mae).toMatchObject({ intervalNote: expect.stringMatching(/understates/) });
  });

  it('rejects columns of different lengths and scores off the 0–1 scale', () => {
    expect(() => agreementFigures([0.5, 1], [1], figureOptions)).toThrow(/differ in length/);
    expect(() => agreementFigures([0.5, 1], [1, Number.NaN], figureOptions)).toThrow(
      'human score 1 is NaN, not a number in [0, 1]',
    );
    expect(() => agreementFigures([2, 1], [1, 1], figureOptions)).toThrow('judge score 0 is 2, not a number in [0, 1]');
  });
});

function pairsFor(
  metric: string,
  languages: string[],
  strata: string[],
  perCell: number,
  seed: string,
): AnnotatedPair[] {
  const rng = createRng(seed);
  const out: AnnotatedPair[] = [];
  for (const language of languages) {
    for (const stratum of strata) {
      for (let i = 0; i < perCell; i++) {
        const j = Math.round(rng.next() * 4) / 4;
        out.push({
          traceId: `${language}-${stratum}-${i}`,
          metric,
          language,
          stratum,
          traceName: 'rag',
          origin: 'experiment',
          split: 'dev',
          judge: j,
          human: rng.chance(0.7) ? Math.round(j * 2) / 2 : rng.pick([0, 0.5, 1]),
        });
      }
    }
  }
  return out;
}

const tableOptions = {
  thresholds: { faithfulness: 0.85, answer_relevancy: 0.8 },
  bootstrap: { resamples: 200, seed: 5 },
};

describe('agreementTable', () => {
  it('breaks a metric down by language, stratum and both, only where that adds a row', () => {
    const pairs = [
      ...pairsFor('faithfulness', ['es', 'en'], ['single-hop', 'multi-hop'], 15, 'f'),
      ...pairsFor('answer_relevancy', ['es'], ['online'], 20, 'a'),
    ];
    const table = agreementTable(pairs, { ...tableOptions, metricOrder: ['faithfulness', 'answer_relevancy'] });
    expect(table.cells.map((c) => [c.metric, c.language, c.stratum, c.n])).toEqual([
      ['faithfulness', null, null, 60],
      ['faithfulness', 'en', null, 30],
      ['faithfulness', 'es', null, 30],
      ['faithfulness', null, 'multi-hop', 30],
      ['faithfulness', null, 'single-hop', 30],
      ['faithfulness', 'en', 'multi-hop', 15],
      ['faithfulness', 'en', 'single-hop', 15],
      ['faithfulness', 'es', 'multi-hop', 15],
      ['faithfulness', 'es', 'single-hop', 15],
      ['answer_relevancy', null, null, 20],
    ]);
    expect(table.cells[0]).toMatchObject({ threshold: 0.85, cuts: DEFAULT_CUTS });
    expect(table.cells.at(-1)).toMatchObject({ threshold: 0.8 });
    expect(table).toMatchObject({
      excluded: [],
      bootstrap: { resamples: 200, seed: 5, level: 0.95 },
      targetWidth: 0.2,
    });
  });

  it("resamples each cell with its own seed: adding another metric's pairs changes no figure", () => {
    const faith = pairsFor('faithfulness', ['es', 'en'], ['x'], 20, 'f');
    const alone = agreementTable(faith, tableOptions).cells;
    const withOther = agreementTable(
      [...pairsFor('answer_relevancy', ['es'], ['x'], 30, 'a'), ...faith],
      tableOptions,
    ).cells;
    expect(withOther.filter((c) => c.metric === 'faithfulness')).toEqual(alone);
    expect(new Set(alone.map((c) => c.seed)).size).toBe(alone.length);
  });

  it('leaves out pairs it cannot use and counts them per metric and reason', () => {
    const good = pairsFor('faithfulness', ['es'], ['x'], 10, 'f');
    const bad: AnnotatedPair[] = [
      { ...good[0]!, traceId: 'nan', judge: Number.NaN },
      { ...good[0]!, traceId: 'big', human: 1.5 },
      { ...good[0]!, traceId: 'neg', human: -0.1 },
      { ...good[0]!, traceId: 'nometric', metric: '' },
      { ...good[0]! }, // the same trace and metric again
    ];
    const table = agreementTable([...good, ...bad], tableOptions);
    expect(table.cells[0]!.n).toBe(10);
    expect(table.excluded).toEqual(
      expect.arrayContaining([
        { metric: 'faithfulness', reason: EXCLUSION.judgeScore, count: 1 },
        { metric: 'faithfulness', reason: EXCLUSION.humanScore, count: 2 },
        { metric: null, reason: EXCLUSION.noMetric, count: 1 },
        { metric: 'faithfulness', reason: EXCLUSION.duplicate, count: 1 },
      ]),
    );
    expect(table.excluded).toHaveLength(4);
  });

  it('groups a pair without language or stratum under unknown', () => {
    const pairs = pairsFor('faithfulness', ['es'], ['x'], 5, 'f');
    pairs.push({ ...pairs[0]!, traceId: 'no-language', language: '', stratum: '' });
    const cells = agreementTable(pairs, tableOptions).cells;
    expect(cells.map((c) => [c.language, c.stratum])).toContainEqual(['unknown', null]);
    expect(cells.map((c) => [c.language, c.stratum])).toContainEqual([null, 'unknown']);
  });

  it('refuses a metric without a gate threshold and options that make no interval, naming them', () => {
    const pairs = pairsFor('context_recall', ['es'], ['x'], 5, 'c');
    expect(() => agreementTable(pairs, tableOptions)).toThrow(/no gate threshold in \(0, 1\] for context_recall/);
    const faith = pairsFor('faithfulness', ['es'], ['x'], 5, 'f');
    expect(() => agreementTable(faith, { ...tableOptions, bootstrap: { resamples: 10 } })).toThrow(
      /bootstrap.resamples/,
    );
    expect(() => agreementTable(faith, { ...tableOptions, targetWidth: 0 })).toThrow(/targetWidth/);
    expect(() =>
      agreementTable(faith, { ...tableOptions, cuts: { faithfulness: { partly: 0.6, supported: 0.9 } } }),
    ).toThrow(/cuts.faithfulness.partly must be in \(0, 0.5\]/);
  });

  it('bins with the metric’s own cut points', () => {
    const pairs = pairsFor('faithfulness', ['es'], ['x'], 30, 'f');
    const strict = agreementTable(pairs, { ...tableOptions, cuts: { faithfulness: { partly: 0.01, supported: 1 } } })
      .cells[0]!;
    const nearest = agreementTable(pairs, tableOptions).cells[0]!;
    expect(strict.cuts).toEqual({ partly: 0.01, supported: 1 });
    expect(strict.levelAgreement).not.toBe(nearest.levelAgreement);
  });
});

describe('agreementTable on anything', () => {
  it('never throws on the pairs and never shows a number that is not finite', () => {
    const anyScore = fc.oneof(
      fc.constantFrom(0, 0.5, 1, 0.85, Number.NaN, Number.POSITIVE_INFINITY, -0.1, 1.01),
      fc.double({ min: 0, max: 1, noNaN: true }),
    );
    const label = fc.oneof(fc.constantFrom('es', 'en', '', 'es\u200b', 'ES', 'multi-hop'), fc.string({ maxLength: 4 }));
    const pair = fc.record({
      traceId: fc.string({ maxLength: 3 }),
      metric: fc.constantFrom('faithfulness', 'answer_relevancy', ''),
      language: label,
      stratum: label,
      traceName: fc.constant('rag'),
      origin: fc.constantFrom('online' as const, 'experiment' as const),
      split: fc.constantFrom(null, 'dev', 'test'),
      judge: anyScore,
      human: anyScore,
    });
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 40 }), (pairs) => {
        const table = agreementTable(pairs, tableOptions);
        const used = table.cells.filter((c) => c.language === null && c.stratum === null).reduce((s, c) => s + c.n, 0);
        const left = table.excluded.reduce((s, e) => s + e.count, 0);
        expect(used + left).toBe(pairs.length);
        for (const cell of table.cells) {
          for (const f of cell.figures) {
            if (!f.estimable) {
              expect(f.reason).toMatch(/\w/);
              continue;
            }
            expect(Number.isFinite(f.value)).toBe(true);
            if (f.interval) expect(Number.isFinite(f.interval.low) && Number.isFinite(f.interval.high)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
