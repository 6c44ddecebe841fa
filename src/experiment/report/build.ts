import type { Pricing } from '../../judge/index.js';
import { diagnose, type Thresholds, getMetric, type MetricName, type MetricResult } from '../../metrics/index.js';
import { comparePaired, summarize, summarizeShare, type BootstrapOptions } from '../stats.js';
import { summarizeFailures } from './failures.js';
import { usageSummary } from './usage.js';
import { DEFAULT_GATE, gateSummary, type GateConfig } from './gate-summary.js';
import {
  type BaselineRow,
  type ExperimentReport,
  type IncompleteSummary,
  type JudgeSection,
  type ReportCell,
  type RunMetadata,
  type SplitFilter,
  type TrendPoint,
  type WorstItem,
} from './model.js';

/** What the experiment learned about one dataset item. */
export interface ItemOutcome {
  itemId: string;
  /** `dev`, `test`, or `unknown` when the item's metadata says nothing. */
  split: string;
  stratum: string;
  /** Adversarial items are judged on abstention and kept out of the metric means. */
  adversarial: boolean;
  results: MetricResult[];
  /** Adversarial items: did the RAG say it lacks the information? null when the judge could not say. */
  abstained?: boolean | null;
  /** Faithfulness of the same item answered with distractor chunks added (noise run), when measured. */
  noisyFaithfulness?: number | null;
  /** The RAG service (target) failed for this item after retries, and how (`http_503`, `timeout`, …). */
  targetError?: string;
  targetErrorKind?: string;
  /** Adversarial items: the abstention judgement failed after its retries (failure kind). */
  abstentionFailure?: string;
  /** The noise pass failed for this item (failure kind); the clean results stand. */
  noiseFailure?: string;
}

export interface PreviousRun {
  runName: string;
  /** metric → item ID → value. */
  perItem: Map<MetricName, Map<string, number>>;
  /** metric → definition version the run was scored with; a metric missing here was scored with definition 1. */
  definitionVersions: Record<string, string>;
}

export interface BuildReportInput<J extends JudgeSection = JudgeSection, C extends object = object> {
  runName: string;
  datasetName: string;
  startedAt: string;
  finishedAt: string;
  split: SplitFilter;
  run: RunMetadata;
  metrics: MetricName[];
  thresholds: Thresholds;
  outcomes: ItemOutcome[];
  previous: PreviousRun | null;
  /** Earlier runs, oldest first (this run is appended). */
  history: TrendPoint[];
  bootstrap: BootstrapOptions;
  noiseThreshold?: number;
  worstCount?: number;
  /** Set when the run stopped early: no gate verdict, and the run is kept out of the trend. */
  incomplete?: IncompleteSummary | null;
  /** `experiment.maxFailedShare`, shown with the failures. */
  maxFailedShare?: number;
  /** How `previous` was chosen (`experiment.compareWith`). */
  compareBasis?: 'previous' | 'last-passed' | 'pinned';
  /** `experiment.gate` (default DEFAULT_GATE). */
  gate?: GateConfig;
  /** The judge check before the run (identity, drift on the anchors). */
  judge?: J | null;
  calibration?: C | null;
  /** `judge.pricing`: the report's usage section then says what the run cost. */
  pricing?: Pricing;
}

export const NOISE_DELTA_THRESHOLD = 0.15;

export function buildReport<J extends JudgeSection = JudgeSection, C extends object = object>(
  input: BuildReportInput<J, C>,
): ExperimentReport<J, C> {
  const outcomes = [...input.outcomes].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0));
  const scored = outcomes.filter((o) => !o.adversarial);
  const splits = unique(outcomes.map((o) => o.split));
  const strata = unique(outcomes.map((o) => o.stratum));

  const cells: ReportCell[] = [];
  for (const metric of input.metrics) {
    for (const split of ['all', ...splits]) {
      for (const stratum of ['all', ...strata]) {
        const group = scored.filter(
          (o) => (split === 'all' || o.split === split) && (stratum === 'all' || o.stratum === stratum),
        );
        if (group.length === 0 && !(split === 'all' && stratum === 'all')) continue;
        const results = group.map((o) => o.results.find((r) => r.metric === metric));
        const values = results.flatMap((r) => (r?.status === 'scored' ? [r.value] : []));
        cells.push({
          metric,
          split,
          stratum,
          summary: summarize(values, input.bootstrap),
          notScorable: results.filter((r) => r?.status === 'not_scorable').length,
          failed: results.filter((r) => r?.status === 'failed').length + group.filter((o) => o.targetError).length,
        });
      }
    }
  }
  const meanOf = (metric: MetricName, split: string) =>
    cells.find((c) => c.metric === metric && c.split === split && c.stratum === 'all')?.summary.mean ?? undefined;

  const gate = incompleteOr(input.incomplete, () =>
    gateSummary({
      outcomes,
      cells,
      metrics: input.metrics,
      thresholds: input.thresholds,
      gate: input.gate ?? DEFAULT_GATE,
      judge: input.judge,
    }),
  );
  const gateValues = gate?.values ?? {};
  const f = gateValues.faithfulness;
  const r = gateValues.context_recall;
  const abstentionCheck = gate?.checks.find((c) => c.check === 'abstention' && c.outcome !== 'not_enough_evidence');
  const onAdversarial = abstentionCheck ? (abstentionCheck.outcome === 'passed' ? 'declines' : 'answers') : undefined;
  const diagnosis =
    f !== undefined && r !== undefined
      ? diagnose({ faithfulness: f, context_recall: r }, input.thresholds, onAdversarial)
      : null;

  const adversarial = outcomes.filter((o) => o.adversarial && typeof o.abstained === 'boolean');
  const abstentionSummary = summarizeShare(adversarial.filter((o) => o.abstained).length, adversarial.length);
  const abstention = outcomes.some((o) => o.adversarial)
    ? { n: abstentionSummary.n, rate: abstentionSummary.mean, ci: abstentionSummary.ci }
    : null;

  const noiseThreshold = input.noiseThreshold ?? NOISE_DELTA_THRESHOLD;
  const deltas = scored.flatMap((o) => {
    const clean = o.results.find((x) => x.metric === 'faithfulness');
    if (clean?.status !== 'scored' || typeof o.noisyFaithfulness !== 'number') return [];
    return [clean.value - o.noisyFaithfulness];
  });
  const measuredNoise = scored.some((o) => o.noisyFaithfulness !== undefined);
  const noiseSummary = summarize(deltas, input.bootstrap, [-1, 1]);
  const noise = measuredNoise
    ? {
        n: noiseSummary.n,
        deltaFaithfulness: noiseSummary.mean,
        ci: noiseSummary.ci,
        flagged: noiseSummary.mean !== null && noiseSummary.mean > noiseThreshold,
        threshold: noiseThreshold,
      }
    : null;

  const currentPerItem = perItemValues(scored, input.metrics);
  let comparison: ExperimentReport['comparison'] = null;
  const baseline: BaselineRow[] = [];
  if (input.previous) {
    const previous = input.previous;
    const perMetric = input.metrics.map((metric) => {
      const before = previous.definitionVersions[metric] ?? '1';
      const now = input.run.definitionVersions[metric] ?? '1';
      const compared = comparePaired(
        previous.perItem.get(metric) ?? new Map(),
        currentPerItem.get(metric) ?? new Map(),
        {
          ...input.bootstrap,
          higherIsBetter: getMetric(metric).higherIsBetter,
        },
      );
      // Values under two definitions measure different things: shown, never flagged.
      const definitionChange = before === now ? null : { previous: before, current: now };
      const comparison = definitionChange ? { ...compared, regression: false, improvement: false } : compared;
      return { metric, comparison, definitionChange };
    });
    comparison = {
      previousRun: input.previous.runName,
      basis: input.compareBasis ?? 'previous',
      perMetric,
      regressions: perMetric.filter((p) => p.comparison.regression).map((p) => p.metric),
    };
    for (const metric of input.metrics) {
      const before = [...(input.previous.perItem.get(metric)?.values() ?? [])];
      const b = before.length > 0 ? before.reduce((s, v) => s + v, 0) / before.length : null;
      const c = meanOf(metric, 'all') ?? null;
      baseline.push({
        metric,
        baseline: b,
        current: c,
        changePct: b !== null && c !== null && b !== 0 ? ((c - b) / b) * 100 : null,
      });
    }
  }

  const incomplete = input.incomplete ?? null;
  const trend: TrendPoint[] = [
    ...input.history,
    ...(incomplete
      ? []
      : [
          {
            runName: input.runName,
            date: input.startedAt,
            means: Object.fromEntries(input.metrics.map((m) => [m, meanOf(m, 'all') ?? null])),
          },
        ]),
  ];
  const failures = summarizeFailures(outcomes, input.maxFailedShare ?? 0.1);

  return {
    schemaVersion: 3,
    runName: input.runName,
    datasetName: input.datasetName,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    split: input.split,
    status: incomplete ? 'incomplete' : 'complete',
    incomplete,
    run: input.run,
    metrics: input.metrics,
    thresholds: Object.fromEntries(
      input.metrics.flatMap((m) => (m in input.thresholds ? [[m, input.thresholds[m as keyof Thresholds]]] : [])),
    ),
    items: {
      total: outcomes.length,
      bySplit: countBy(outcomes, (o) => o.split),
      byStratum: countBy(outcomes, (o) => o.stratum),
      failed: failures.items,
    },
    cells,
    abstention,
    noise,
    failures,
    gate,
    diagnosis: incomplete ? null : diagnosis,
    comparison,
    trend,
    baseline,
    worstItems: worstDevItems(scored, input.worstCount ?? 10),
    usage: usageSummary(outcomes, input.metrics, input.pricing),
    judge: input.judge ?? null,
    calibration: input.calibration ?? null,
  };
}

/** No verdict for an incomplete run: an outage is not a verdict. */
function incompleteOr<T>(incomplete: IncompleteSummary | null | undefined, build: () => T): T | null {
  return incomplete ? null : build();
}

/** metric → item → value, for the next run's paired comparison. */
export function perItemValues(outcomes: ItemOutcome[], metrics: MetricName[]): Map<MetricName, Map<string, number>> {
  const out = new Map<MetricName, Map<string, number>>();
  for (const metric of metrics) {
    const values = new Map<string, number>();
    for (const o of outcomes) {
      const r = o.results.find((x) => x.metric === metric);
      if (r?.status === 'scored') values.set(o.itemId, r.value);
    }
    out.set(metric, values);
  }
  return out;
}

/** The Goodhart guard: only dev items are ever listed one by one. */
function worstDevItems(outcomes: ItemOutcome[], count: number): WorstItem[] {
  const rows: WorstItem[] = [];
  for (const o of outcomes) {
    if (o.split !== 'dev') continue;
    for (const r of o.results) {
      if (r.status !== 'scored') continue;
      const badness = getMetric(r.metric).higherIsBetter ? 1 - r.value : r.value;
      if (badness <= 0) continue;
      rows.push({ itemId: o.itemId, stratum: o.stratum, metric: r.metric, value: r.value, reason: r.reason });
    }
  }
  const badness = (w: WorstItem) => (getMetric(w.metric).higherIsBetter ? 1 - w.value : w.value);
  rows.sort(
    (a, b) =>
      badness(b) - badness(a) ||
      (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0) ||
      (a.metric < b.metric ? -1 : 1),
  );
  return rows.slice(0, count);
}

function unique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

function countBy<T>(values: T[], key: (v: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[key(v)] = (out[key(v)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
