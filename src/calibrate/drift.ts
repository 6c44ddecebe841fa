/**
 * Has the judge changed? A fixed, versioned anchor set — samples with the judge's stored scores — is scored
 * again each week; on identical inputs an unchanged judge gives (nearly) the same scores.
 *
 * Per metric, each anchor's change is |this week − stored| (1 when the anchor became or stopped being not
 * scorable, 0 when it is not scorable both times). The figure is the mean absolute change over the anchors,
 * with a paired percentile bootstrap interval (the anchors resampled, each with its own pair of scores):
 *
 *   changed             the whole interval lies above the tolerance: the judge moved by more than it
 *   unchanged           the whole interval lies below the tolerance: whatever moved, it moved by less
 *   inconclusive        the interval holds the tolerance (more anchors decide), whichever side the mean is on
 *   not_estimable       too few anchors scored both times
 *
 * The rule is symmetric: each side is a one-sided test at 2.5 % against a move of exactly the tolerance, so a
 * mean of 0.029 with an interval reaching 0.049 is as undecided as 0.031 with the same interval. An unchanged
 * judge, whose mean change lies well below the tolerance, is flagged far more rarely (bench/calibrate.ts).
 *
 * Absolute, not signed, change: a judge that flips verdicts both ways moves individual scores a lot and their
 * mean hardly at all. The signed mean change is reported beside it, for the direction (stricter or laxer).
 *
 * The tolerance absorbs the judge's own non-determinism: vLLM at temperature 0 is not bit-reproducible under
 * batching, so an unchanged judge re-scores a few anchors slightly differently. DEFAULT_DRIFT_TOLERANCE is
 * chosen in bench/calibrate.ts against a simulation of that non-determinism (devkit/src/calibrate/rescore.ts)
 * and of a judge flipping 10 % of its verdicts; docs/calibration.md gives the figures.
 */
import { bootstrapIntervals, DEFAULT_BOOTSTRAP, derivedSeed } from './bootstrap.js';
import type { BootstrapInterval, BootstrapOptions } from './bootstrap.js';
import { estimated, tooFewPairs, type PairEstimator } from './estimate.js';
import { fingerprintChanges, type JudgeFingerprint } from './fingerprint.js';

export interface AnchorScore {
  anchorId: string;
  metric: string;
  /** 0–1, or null when the judge found the anchor not scorable. */
  score: number | null;
}

export interface AnchorSet {
  version: string;
  scores: readonly AnchorScore[];
  judge?: JudgeFingerprint | null;
}

export interface AnchorRescore {
  /** The anchor set version the re-scores are of. */
  anchorSetVersion: string;
  /** This week's scores; an anchor whose judge call failed is simply absent. */
  scores: readonly AnchorScore[];
  judge?: JudgeFingerprint | null;
}

export interface DriftOptions {
  /** Mean absolute change on the 0–1 scale an unchanged judge stays within; default DEFAULT_DRIFT_TOLERANCE. */
  tolerance?: number;
  /** Fewer anchors scored both times: not estimable. Default 30. */
  minAnchors?: number;
  bootstrap?: Partial<BootstrapOptions>;
}

export type DriftStatus = 'changed' | 'unchanged' | 'inconclusive' | 'not_estimable';

export interface MetricDrift {
  metric: string;
  status: DriftStatus;
  /** One line for the report. */
  summary: string;
  /** Anchors of this metric in the stored set, re-scored this week, and missing from this week's scores. */
  anchors: number;
  paired: number;
  missing: number;
  /** Anchors whose score moved by VISIBLE_CHANGE or more, and those that became or stopped being not scorable. */
  changed: number;
  scorabilityChanged: number;
  meanAbsoluteChange: number | null;
  interval: BootstrapInterval | null;
  /** Mean of (this week − stored) over anchors scored both times: negative = stricter. */
  meanChange: number | null;
  meanChangeInterval: BootstrapInterval | null;
}

export interface DriftReport {
  anchorSetVersion: string;
  tolerance: number;
  /** Some metric's status is `changed`: the report says "the judge changed" before any RAG figure. */
  judgeChanged: boolean;
  metrics: MetricDrift[];
  /** What differs in the judge's fingerprint (model, vLLM version, prompts); empty when equal or unknown. */
  fingerprintChanges: string[];
  /** Re-scores of anchors the stored set does not have (ignored). */
  unknownAnchors: number;
}

export const DEFAULT_DRIFT_TOLERANCE = 0.03;
export const DEFAULT_MIN_ANCHORS = 30;
/** A change that shows at the three decimals reports print; below it is float noise (batched embeddings). */
export const VISIBLE_CHANGE = 0.001;

const meanOfX: PairEstimator = (x, _y, n = x.length) => {
  const few = tooFewPairs(n);
  if (few) return few;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i] as number;
  return estimated(sum / n);
};

export function judgeDrift(stored: AnchorSet, rescore: AnchorRescore, options: DriftOptions = {}): DriftReport {
  const tolerance = options.tolerance ?? DEFAULT_DRIFT_TOLERANCE;
  const minAnchors = options.minAnchors ?? DEFAULT_MIN_ANCHORS;
  const bootstrap = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  if (!(tolerance >= 0 && tolerance < 1)) throw new RangeError(`tolerance must be in [0, 1) (got ${tolerance})`);
  if (!(Number.isInteger(minAnchors) && minAnchors >= 2)) {
    throw new RangeError(`minAnchors must be a whole number of at least 2 (got ${minAnchors})`);
  }
  const before = indexScores(stored.scores, `anchor set ${stored.version}`);
  const after = indexScores(rescore.scores, 're-scores');
  let unknownAnchors = 0;
  for (const [metric, scores] of after) {
    for (const id of scores.keys()) if (!before.get(metric)?.has(id)) unknownAnchors++;
  }
  const versionProblem =
    stored.version === rescore.anchorSetVersion
      ? null
      : `the re-scores are of anchor set ${rescore.anchorSetVersion}, the stored scores of ${stored.version}: ` +
        'not comparable';

  const metrics = [...before.keys()].sort().map((metric): MetricDrift => {
    const then = before.get(metric)!;
    const changes = anchorChanges(then, after.get(metric) ?? new Map());
    const base = {
      metric,
      anchors: then.size,
      paired: changes.absolute.length,
      missing: then.size - changes.absolute.length,
      changed: changes.changed,
      scorabilityChanged: changes.scorabilityChanged,
    };
    const problem =
      versionProblem ??
      (changes.absolute.length < minAnchors
        ? `${changes.absolute.length} of ${then.size} anchors scored both times; at least ${minAnchors} are needed`
        : null);
    if (problem !== null) {
      const none = { meanAbsoluteChange: null, interval: null, meanChange: null, meanChangeInterval: null };
      return { ...base, status: 'not_estimable', summary: problem, ...none };
    }
    const seed = derivedSeed(bootstrap.seed, `drift\u0000${metric}`);
    const intervalOfMean = (column: number[]) => {
      const target = { x: column, y: column, estimator: meanOfX };
      const [r] = bootstrapIntervals(column.length, [target], { ...bootstrap, seed });
      return r && !('estimable' in r) ? r : null;
    };
    // At least minAnchors ≥ 2 values: the mean and its interval always exist.
    const interval = intervalOfMean(changes.absolute) as BootstrapInterval;
    const meanAbsoluteChange = mean(changes.absolute) as number;
    const status: DriftStatus =
      interval.low > tolerance ? 'changed' : interval.high < tolerance ? 'unchanged' : 'inconclusive';
    return {
      ...base,
      status,
      summary: summaryLine(status, meanAbsoluteChange, interval, tolerance, `${changes.changed} of ${base.paired}`),
      meanAbsoluteChange,
      interval,
      meanChange: mean(changes.signed),
      meanChangeInterval: intervalOfMean(changes.signed),
    };
  });
  return {
    anchorSetVersion: stored.version,
    tolerance,
    judgeChanged: metrics.some((m) => m.status === 'changed'),
    metrics,
    fingerprintChanges: stored.judge && rescore.judge ? fingerprintChanges(stored.judge, rescore.judge) : [],
    unknownAnchors,
  };
}

/** Each anchor scored both times, in id order: its absolute change, and its signed change when scored twice. */
function anchorChanges(then: ReadonlyMap<string, number | null>, now: ReadonlyMap<string, number | null>) {
  const absolute: number[] = [];
  const signed: number[] = [];
  let changed = 0;
  let scorabilityChanged = 0;
  for (const [id, s] of [...then].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!now.has(id)) continue;
    const r = now.get(id) as number | null;
    if (s === null || r === null) {
      const flipped = (s === null) !== (r === null);
      absolute.push(flipped ? 1 : 0);
      if (flipped) {
        scorabilityChanged++;
        changed++;
      }
      continue;
    }
    absolute.push(Math.abs(r - s));
    signed.push(r - s);
    if (Math.abs(r - s) >= VISIBLE_CHANGE) changed++;
  }
  return { absolute, signed, changed, scorabilityChanged };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/** One line per metric; the report's own heading says what the status means, so the line does not repeat it. */
function summaryLine(status: DriftStatus, value: number, ci: BootstrapInterval, tolerance: number, moved: string) {
  const level = Math.round(ci.level * 100);
  const figure = `mean absolute change ${value.toFixed(3)} (${level} % CI ${ci.low.toFixed(3)}–${ci.high.toFixed(3)})`;
  const scope = `${moved} anchors scored differently`;
  if (status === 'changed') return `${figure}, all of it above the tolerance ${tolerance}; ${scope}`;
  if (status === 'unchanged') return `${figure}, all of it below the tolerance ${tolerance}; ${scope}`;
  return `${figure} holds the tolerance ${tolerance}: not enough evidence either way, more anchors would decide; ${scope}`;
}

const isAnchorScore = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1);

function indexScores(scores: readonly AnchorScore[], what: string): Map<string, Map<string, number | null>> {
  const byMetric = new Map<string, Map<string, number | null>>();
  for (const s of scores) {
    const anchor = `${what}: anchor ${s.anchorId} (${s.metric})`;
    if (!isAnchorScore(s.score)) {
      throw new RangeError(`${anchor} has score ${String(s.score)}, not a number in [0, 1] or null`);
    }
    let m = byMetric.get(s.metric);
    if (!m) byMetric.set(s.metric, (m = new Map()));
    if (m.has(s.anchorId)) throw new RangeError(`${anchor} is listed twice`);
    m.set(s.anchorId, s.score);
  }
  return byMetric;
}
