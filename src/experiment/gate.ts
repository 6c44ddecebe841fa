/**
 * The release gate, pure: each gated figure (a metric's mean on the gate split, the abstention rate on its
 * adversarial items) against its threshold, with its n and interval, and three outcomes for the run:
 *
 *   passed                every check passed
 *   failed                some check failed on enough evidence
 *   not_enough_evidence   no check failed, but some could not be decided: fewer items than the minimum, no value
 *                         at all (nothing scored: no evidence, not a zero), or (rule `interval`) an interval that
 *                         holds the threshold
 *
 * Rule `point` compares the mean with the threshold (a verdict whose interval holds the threshold is marked
 * borderline); rule `interval` passes a check only when the whole interval clears the threshold and fails it only
 * when the whole interval misses it.
 */
import type { Interval } from './stats.js';

export type GateOutcome = 'passed' | 'failed' | 'not_enough_evidence';
export type GateRule = 'point' | 'interval';

export interface GateSettings {
  rule: GateRule;
  /** A metric decided on fewer items (on the gate split) is not enough evidence. */
  minItems: number;
  /** The same for the abstention rate, over the gate split's adversarial items. */
  minAbstentionItems: number;
}

/** One figure the gate looks at. */
export interface GateEvidence {
  /** A metric name, or `abstention`. */
  check: string;
  threshold: number;
  /** true: the value must reach the threshold; false: it must not exceed it. */
  higherIsBetter: boolean;
  n: number;
  value: number | null;
  interval: Interval | null;
  /** `minItems` or `minAbstentionItems`, whichever applies. */
  minN: number;
}

export interface CheckVerdict extends GateEvidence {
  outcome: GateOutcome;
  /** The threshold lies inside the interval: the verdict could go either way with other items. */
  borderline: boolean;
  /** One line: the figure, its n and interval, the threshold and the outcome's reason. */
  line: string;
}

export interface GateDecision {
  outcome: GateOutcome;
  rule: GateRule;
  checks: CheckVerdict[];
  /** The check that decided: the first failed one, else the first undecided, else the closest to its threshold. */
  deciding: CheckVerdict | null;
}

const fmt = (v: number) => v.toFixed(3);

export function decideCheck(e: GateEvidence, rule: GateRule): CheckVerdict {
  const meets = (v: number) => (e.higherIsBetter ? v >= e.threshold : v <= e.threshold);
  const op = e.higherIsBetter ? '≥' : '≤';
  const ci = e.interval ? ` [${fmt(e.interval.low)}, ${fmt(e.interval.high)}]` : '';
  const figure = e.value === null ? 'no value' : `${fmt(e.value)}${ci}`;
  const head = `${e.check}: ${figure}, n = ${e.n}, threshold ${op} ${e.threshold}`;
  const borderline = e.interval !== null && e.interval.low <= e.threshold && e.threshold <= e.interval.high;
  const verdict = (outcome: GateOutcome, why: string): CheckVerdict => ({
    ...e,
    outcome,
    borderline,
    line: `${head}: ${why}`,
  });
  if (e.value === null || e.n === 0) return verdict('not_enough_evidence', 'not enough evidence (nothing scored)');
  if (e.n < e.minN) return verdict('not_enough_evidence', `not enough evidence (fewer than ${e.minN} items)`);
  if (rule === 'interval') {
    if (e.interval === null) return verdict('not_enough_evidence', 'not enough evidence (no interval)');
    if (meets(e.interval.low) && meets(e.interval.high)) return verdict('passed', 'passed (the whole interval)');
    if (!meets(e.interval.low) && !meets(e.interval.high)) return verdict('failed', 'failed (the whole interval)');
    return verdict('not_enough_evidence', 'not enough evidence (the interval holds the threshold)');
  }
  const mark = borderline ? ', borderline: the interval holds the threshold' : '';
  return meets(e.value) ? verdict('passed', `passed${mark}`) : verdict('failed', `failed${mark}`);
}

export function decideGate(evidence: readonly GateEvidence[], rule: GateRule): GateDecision {
  const checks = evidence.map((e) => decideCheck(e, rule));
  const failed = checks.filter((c) => c.outcome === 'failed');
  const undecided = checks.filter((c) => c.outcome === 'not_enough_evidence');
  const outcome: GateOutcome = failed.length > 0 ? 'failed' : undecided.length > 0 ? 'not_enough_evidence' : 'passed';
  const margin = (c: CheckVerdict) =>
    c.value === null ? Number.POSITIVE_INFINITY : (c.higherIsBetter ? 1 : -1) * (c.value - c.threshold);
  const closest = [...checks].sort((a, b) => margin(a) - margin(b))[0] ?? null;
  return { outcome, rule, checks, deciding: failed[0] ?? undecided[0] ?? closest };
}
