/**
 * Every agreement figure of one set of (judge, human) score pairs: the point estimate, a seeded percentile
 * bootstrap interval, n, and how many more annotations would halve the interval's width or bring it to a target.
 * Scores are on the 0–1 scale (a 3-level human answer as 0, 0.5 or 1); anything else is refused (the table
 * leaves such pairs out and counts them before they get here).
 */
import { bootstrapIntervals } from './bootstrap.js';
import type { BootstrapInterval, BootstrapOptions, BootstrapTarget } from './bootstrap.js';
import type { NotEstimable } from './estimate.js';
import { linearWeightedKappa, passFailKappa, quadraticWeightedKappa } from './kappa.js';
import { kendallTauB } from './kendall.js';
import { levelIndex, passes, type LevelCuts } from './levels.js';
import { meanAbsoluteError } from './mae.js';
import { moreAnnotationsForWidth, moreAnnotationsToHalve } from './precision.js';
import { denseCodes } from './ranks.js';
import { spearman } from './spearman.js';
import { AGREEMENT_STATISTICS, type AgreementStatistic } from './statistics.js';

export interface FigureOptions {
  /** The metric's gate threshold: pass/fail for κ is score ≥ threshold, for the judge and for people. */
  threshold: number;
  /** Cut points binning scores onto the three levels for weighted κ. */
  cuts: LevelCuts;
  bootstrap: BootstrapOptions;
  /** Width the "more annotations for" figure aims at (0.2: the figure known within about ±0.1). */
  targetWidth: number;
  /** The figures to compute, in display order; default every one. */
  statistics?: readonly AgreementStatistic[];
}

export type AgreementFigure =
  | {
      statistic: AgreementStatistic;
      n: number;
      estimable: true;
      value: number;
      /** Null when the resamples could not bound it; `intervalNote` says why. */
      interval: BootstrapInterval | null;
      intervalNote: string | null;
      /** Annotations beyond n that would halve the interval's width (3n); null without an interval width. */
      moreToHalveWidth: number | null;
      /** Annotations beyond n for the interval to narrow to `targetWidth`; 0 when it already has. */
      moreForTargetWidth: number | null;
    }
  | { statistic: AgreementStatistic; n: number; estimable: false; reason: string };

export interface CellFigures {
  n: number;
  /** Shares of pairs the judge and people pass at the threshold (κ depends on them: read κ beside them). */
  judgePassShare: number | null;
  humanPassShare: number | null;
  /** Raw shares of pairs agreeing on pass/fail and on the exact level. */
  passAgreement: number | null;
  levelAgreement: number | null;
  figures: AgreementFigure[];
}

export function agreementFigures(
  judge: readonly number[],
  human: readonly number[],
  options: FigureOptions,
): CellFigures {
  const n = judge.length;
  if (human.length !== n) throw new RangeError(`judge and human columns differ in length (${n} and ${human.length})`);
  const bad = [...judge, ...human].findIndex((s) => !(Number.isFinite(s) && s >= 0 && s <= 1));
  if (bad >= 0) {
    const [column, i] = bad < n ? ['judge', bad] : ['human', bad - n];
    throw new RangeError(`${column} score ${i} is ${[...judge, ...human][bad]}, not a number in [0, 1]`);
  }
  const judgePass = Float64Array.from(judge, (s) => (passes(s, options.threshold) ? 1 : 0));
  const humanPass = Float64Array.from(human, (s) => (passes(s, options.threshold) ? 1 : 0));
  const judgeLevel = Float64Array.from(judge, (s) => levelIndex(s, options.cuts));
  const humanLevel = Float64Array.from(human, (s) => levelIndex(s, options.cuts));

  // ρ and τ read the order only: their columns are dense codes, which the rank helpers sort by counting.
  const judgeCode = denseCodes(judge);
  const humanCode = denseCodes(human);

  const targets: Record<AgreementStatistic, BootstrapTarget> = {
    spearman: { x: judgeCode, y: humanCode, estimator: spearman },
    kendall_tau_b: { x: judgeCode, y: humanCode, estimator: kendallTauB },
    mae: { x: judge, y: human, estimator: meanAbsoluteError },
    kappa: { x: judgePass, y: humanPass, estimator: passFailKappa },
    weighted_kappa_linear: { x: judgeLevel, y: humanLevel, estimator: linearWeightedKappa },
    weighted_kappa_quadratic: { x: judgeLevel, y: humanLevel, estimator: quadraticWeightedKappa },
  };
  const wanted = AGREEMENT_STATISTICS.filter((s) => !options.statistics || options.statistics.includes(s));
  const points = wanted.map((s) => targets[s].estimator(targets[s].x, targets[s].y, n));
  // Intervals only for the figures that have a point estimate.
  const withPoint = wanted.filter((_, i) => points[i]!.estimable);
  const intervals = bootstrapIntervals(
    n,
    withPoint.map((s) => targets[s]),
    options.bootstrap,
  );
  const intervalOf = new Map(withPoint.map((s, i) => [s, intervals[i]!]));

  const figures = wanted.map((statistic, i): AgreementFigure => {
    const point = points[i]!;
    if (!point.estimable) return { statistic, n, estimable: false, reason: point.reason };
    const interval = intervalFields(n, intervalOf.get(statistic)!, options);
    return { statistic, n, estimable: true, value: point.value, ...interval };
  });
  return {
    n,
    judgePassShare: share(judgePass, n),
    humanPassShare: share(humanPass, n),
    passAgreement: agreeingShare(judgePass, humanPass, n),
    levelAgreement: agreeingShare(judgeLevel, humanLevel, n),
    figures,
  };
}

const ZERO_WIDTH = 'every resample gave the same value: the interval understates the uncertainty';

function intervalFields(n: number, interval: BootstrapInterval | NotEstimable, options: FigureOptions) {
  if ('estimable' in interval) {
    return { interval: null, intervalNote: interval.reason, moreToHalveWidth: null, moreForTargetWidth: null };
  }
  return {
    interval,
    intervalNote: interval.width === 0 ? ZERO_WIDTH : null,
    moreToHalveWidth: moreAnnotationsToHalve(n, interval.width),
    moreForTargetWidth: moreAnnotationsForWidth(n, interval.width, options.targetWidth),
  };
}

function share(codes: Float64Array, n: number): number | null {
  if (n === 0) return null;
  let sum = 0;
  for (const c of codes) sum += c;
  return sum / n;
}

function agreeingShare(a: Float64Array, b: Float64Array, n: number): number | null {
  if (n === 0) return null;
  let same = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) same++;
  return same / n;
}
