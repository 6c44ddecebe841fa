/**
 * Which scored traces to put in the annotation queue: a stratified sample by language, trace name and the
 * trace's score bucket (the level of each calibrated metric's score), `rate` of the week's scored traces
 * (default 2 %, at least one while there is any) up to a weekly cap.
 *
 * Allocation is proportional to the strata's sizes (largest remainder), so the sample is self-weighting: the
 * figures pooled over it estimate agreement on the traffic as it is, not on a mix of our choosing. Within a
 * stratum the traces with the smallest seeded point (sha256 of a salt with the seed and the trace id, as the
 * online sampler) go first, so the plan is deterministic and a trace picked once stays picked as the week fills.
 *
 * Traces already queued (or already annotated) count toward their stratum's share and are never picked
 * again, so running the plan again the same week only tops up: the shortfall of each stratum against its
 * proportional share is what the remaining budget is shared by.
 */
import { samplingPoint } from '../random.js';
import { apportionCapped } from './apportion.js';
import { assertCuts, DEFAULT_CUTS, levelOf, type LevelCuts } from './levels.js';

export interface EnqueueCandidate {
  traceId: string;
  traceName: string;
  language: string;
  origin: 'online' | 'experiment';
  /** ragwatch's scores on the trace, per metric (0–1). */
  scores: Readonly<Record<string, number>>;
  /** Already in the queue this week, or already annotated: counts toward the shares, never picked again. */
  queued: boolean;
}

export interface SamplingPlanOptions {
  /** Share of the week's eligible traces to annotate; default 0.02. */
  rate?: number;
  /** At most this many traces in the queue per week, those already queued included; default 100. */
  weeklyCap?: number;
  seed: number;
  /** Metrics whose score levels make the bucket, in this order. */
  metrics: readonly string[];
  cuts?: Readonly<Partial<Record<string, LevelCuts>>>;
}

export interface StratumPlan {
  language: string;
  traceName: string;
  /** `faithfulness=supported,answer_relevancy=partly` (`none`: the metric has no score on the trace). */
  bucket: string;
  candidates: number;
  queued: number;
  picked: number;
}

export interface SamplingPlan {
  /** Traces that could be queued this week (queued ones included). */
  eligible: number;
  /** min(weekly cap, ⌈rate · eligible⌉): queued and picked together. */
  target: number;
  queued: number;
  /** To put in the queue now, by stratum and then point. */
  picked: EnqueueCandidate[];
  strata: StratumPlan[];
  skipped: Array<{ reason: string; count: number }>;
}

export const DEFAULT_ANNOTATION_RATE = 0.02;
export const DEFAULT_WEEKLY_CAP = 100;
export const SKIP = {
  duplicate: 'listed twice (the first is kept)',
  unscored: 'no ragwatch score of a calibrated metric',
} as const;

const isScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

export function samplingPlan(candidates: readonly EnqueueCandidate[], options: SamplingPlanOptions): SamplingPlan {
  const rate = options.rate ?? DEFAULT_ANNOTATION_RATE;
  const cap = options.weeklyCap ?? DEFAULT_WEEKLY_CAP;
  const problems: string[] = [];
  if (!(rate > 0 && rate <= 1)) problems.push(`rate must be in (0, 1] (got ${rate})`);
  if (!(Number.isInteger(cap) && cap >= 1)) {
    problems.push(`weeklyCap must be a whole number of at least 1 (got ${cap})`);
  }
  if (!Number.isInteger(options.seed)) problems.push(`seed must be an integer (got ${options.seed})`);
  if (options.metrics.length === 0) problems.push('metrics must name at least one metric');
  if (problems.length > 0) throw new RangeError(problems.join('; '));
  const cutsOf = (metric: string) => options.cuts?.[metric] ?? DEFAULT_CUTS;
  for (const metric of options.metrics) assertCuts(cutsOf(metric), `cuts.${metric}`);

  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const seen = new Set<string>();
  const strata = new Map<string, { plan: StratumPlan; open: Array<{ c: EnqueueCandidate; point: number }> }>();
  const salt = `ragwatch-calibrate-v1:${options.seed}`;
  for (const c of candidates) {
    if (seen.has(c.traceId)) {
      skip(SKIP.duplicate);
      continue;
    }
    seen.add(c.traceId);
    const levelName = (m: string) => (isScore(c.scores[m]) ? levelOf(c.scores[m], cutsOf(m)) : 'none');
    const levels = options.metrics.map((m) => `${m}=${levelName(m)}`);
    if (options.metrics.every((m) => !isScore(c.scores[m]))) {
      skip(SKIP.unscored);
      continue;
    }
    const language = c.language || 'unknown';
    const bucket = levels.join(',');
    const key = `${language}\u0000${c.traceName}\u0000${bucket}`;
    let stratum = strata.get(key);
    if (!stratum) {
      stratum = { plan: { language, traceName: c.traceName, bucket, candidates: 0, queued: 0, picked: 0 }, open: [] };
      strata.set(key, stratum);
    }
    stratum.plan.candidates += 1;
    if (c.queued) stratum.plan.queued += 1;
    else stratum.open.push({ c, point: samplingPoint(c.traceId, salt) });
  }

  const ordered = [...strata].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
  const eligible = ordered.reduce((s, x) => s + x.plan.candidates, 0);
  const queued = ordered.reduce((s, x) => s + x.plan.queued, 0);
  const target = eligible === 0 ? 0 : Math.min(cap, Math.ceil(rate * eligible - 1e-9));
  const ideal = ordered.map((s) => (target * s.plan.candidates) / eligible);
  const counts = apportionCapped(
    Math.max(0, target - queued),
    ordered.map((s, i) => Math.max(0, (ideal[i] as number) - s.plan.queued)),
    ordered.map((s) => s.open.length),
    ideal,
  );
  const picked: EnqueueCandidate[] = [];
  ordered.forEach((s, i) => {
    const take = counts[i] as number;
    s.plan.picked = take;
    s.open.sort((a, b) => a.point - b.point || (a.c.traceId < b.c.traceId ? -1 : 1));
    for (const { c } of s.open.slice(0, take)) picked.push(c);
  });
  return {
    eligible,
    target,
    queued,
    picked,
    strata: ordered.map((s) => s.plan),
    skipped: [...skipped].map(([reason, count]) => ({ reason, count })),
  };
}
