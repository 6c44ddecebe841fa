import type { JudgeSection, RenderedSection } from '../judge-stage.js';
import type { Diagnosis, MetricName } from '../../metrics/index.js';
import type { CheckVerdict, GateOutcome, GateRule } from '../gate.js';
import type { Interval, MeanSummary, PairedComparison } from '../stats.js';
import type { UsageSummary } from './usage.js';

/** Everything a weekly report shows. `report.json` is this object; Markdown and HTML are views of it. */
/** J and C: the judge stage's shapes of its two sections (judge-stage.ts). */
export interface ExperimentReport<J extends JudgeSection = JudgeSection, C extends object = object> {
  /** 3: the gate has three outcomes (`outcome`, `rule`, `checks`, `deciding`); 2: `status`, `incomplete`, `failures`, a nullable `gate` with `decidedOn`, definition versions. */
  schemaVersion: 3;
  runName: string;
  datasetName: string;
  /** ISO timestamps of the run. */
  startedAt: string;
  finishedAt: string;
  /** Which items the run covered (`--split`). */
  split: SplitFilter;
  /** `incomplete`: the run stopped (an outage, or too many failed items); no gate verdict, never a baseline. */
  status: 'complete' | 'incomplete';
  incomplete: IncompleteSummary | null;
  run: RunMetadata;
  /** Metrics in display order. */
  metrics: MetricName[];
  thresholds: Partial<Record<MetricName, number>>;
  items: { total: number; bySplit: Record<string, number>; byStratum: Record<string, number>; failed: number };
  /** Per metric, per split (`all`, `dev`, `test`) and per stratum (`all`, `single-hop`, …). */
  cells: ReportCell[];
  abstention: AbstentionSummary | null;
  noise: NoiseSummary | null;
  /** Each item's failures after retries, per metric (and RAG service, abstention, noise pass). */
  failures: FailureSummary;
  /** Null for an incomplete run: an outage is not a verdict. */
  gate: GateSummary | null;
  diagnosis: Diagnosis | null;
  comparison: ComparisonSummary | null;
  /** Earlier runs of the same dataset, oldest first, this run last. */
  trend: TrendPoint[];
  /** The seed's baseline-vs-current table: the previous run against this one. */
  baseline: BaselineRow[];
  /** Per-item drill-down: dev split only (the Goodhart guard keeps test items aggregate). */
  worstItems: WorstItem[];
  /** The judge's calls and tokens per metric over the run's items, and their cost with `judge.pricing`. */
  usage: UsageSummary;
  /** Who the judge was and whether it changed on the anchor set (measured before the items ran). */
  judge: J | null;
  /** Agreement between the judge and people (`ragwatch calibrate`); null when not computed. */
  calibration: C | null;
}

export type { JudgeSection };

/** The judge stage's sections as the Markdown and HTML reports show them (the stage renders them). */
export interface ReportSections {
  judge?: RenderedSection | null;
  calibration?: RenderedSection | null;
}

export type SplitFilter = 'dev' | 'test' | 'all';

export interface RunMetadata {
  ragwatchVersion: string;
  judgeModel: string;
  /** The weights behind the judge's served name and the vLLM version, where the server says. */
  judgeModelRoot?: string | null;
  judgeVllmVersion?: string | null;
  embeddingsModel: string;
  promptVersions: Record<string, string>;
  configHash: string;
  seed: number;
  target: string;
  /** Definition version of each metric (what its value means); comparisons across a change are not regressions. */
  definitionVersions: Record<string, string>;
}

export interface IncompleteSummary {
  /** Why the run stopped, one line. */
  reason: string;
  /** The dependency that was unreachable, or null when too many items failed. */
  dependency: string | null;
  /** Items the run did not get to (or abandoned when it stopped); they are not in any figure. */
  itemsNotRun: number;
}

export interface FailureSummary {
  /** Items with at least one failure, and their share of the items run. */
  items: number;
  share: number;
  /** `experiment.maxFailedShare`: above it the run is incomplete. */
  maxShare: number;
  rows: FailureRow[];
}

export interface FailureRow {
  /** A metric, or `rag_service`, `abstention`, `noise_faithfulness`. */
  what: string;
  count: number;
  /** Failure kinds and how often (`connection`, `schema_mismatch`, …); never a message (it may quote data). */
  kinds: Record<string, number>;
  /** Dev items by id. */
  devItems: string[];
  /** Items of the test (or no) split: counted only. */
  otherItems: number;
}

export interface ReportCell {
  metric: MetricName;
  split: string;
  stratum: string;
  summary: MeanSummary;
  notScorable: number;
  failed: number;
}

export interface AbstentionSummary {
  /** Adversarial items judged. */
  n: number;
  /** Share of adversarial items where the RAG said it lacks the information. */
  rate: number | null;
  ci: Interval | null;
}

export interface NoiseSummary {
  n: number;
  /** Mean faithfulness clean − noisy, in [−1, 1]. */
  deltaFaithfulness: number | null;
  ci: Interval | null;
  /** Above the seed's 0.15: the prompt or model is fragile under contaminated context. */
  flagged: boolean;
  threshold: number;
}

export interface GateSummary {
  /** passed, failed, or not_enough_evidence (too few items, nothing scored, or an interval holding the threshold). */
  outcome: GateOutcome;
  /** `outcome === 'passed'`. */
  passed: boolean;
  /** `experiment.gate.rule`. */
  rule: GateRule;
  /** The judge changed on the anchor set this week: read no regression before the cause is known. */
  judgeChanged: boolean;
  /** The split the gate was judged on: `test` when it has items, else `all`. */
  judgedOn: 'test' | 'all';
  /** Each gated figure: its n, value, interval, threshold and outcome. */
  checks: CheckVerdict[];
  /** The check that decided the outcome (the first failed, else the first undecided, else the closest call). */
  deciding: CheckVerdict | null;
  /** The judge's change, then every check that did not pass or is borderline, one line each. */
  lines: string[];
  values: Partial<Record<MetricName, number>>;
  /** How many items the verdict rests on: the split's scored items, per gated metric what each item gave, and
   * the adversarial items the abstention check was judged on. */
  decidedOn: {
    items: number;
    perMetric: Partial<Record<MetricName, { scored: number; notScorable: number; failed: number }>>;
    abstention?: number;
  };
}

export interface ComparisonSummary {
  previousRun: string;
  /** How the run compared with was chosen (`experiment.compareWith`, `--compare-with`). */
  basis?: 'previous' | 'last-passed' | 'pinned';
  /** `definitionChange`: the metric's definition differs between the runs; the values are not compared. */
  perMetric: Array<{
    metric: MetricName;
    comparison: PairedComparison;
    definitionChange: { previous: string; current: string } | null;
  }>;
  regressions: MetricName[];
}

export interface TrendPoint {
  runName: string;
  date: string;
  means: Partial<Record<MetricName, number | null>>;
}

export interface BaselineRow {
  metric: MetricName;
  baseline: number | null;
  current: number | null;
  /** (current − baseline) / baseline × 100; null when either side is missing or the baseline is 0. */
  changePct: number | null;
}

export interface WorstItem {
  itemId: string;
  stratum: string;
  metric: MetricName;
  value: number;
  reason: string;
}

export function cell(
  report: Pick<ExperimentReport, 'cells'>,
  metric: MetricName,
  split = 'all',
  stratum = 'all',
): ReportCell | undefined {
  return report.cells.find((c) => c.metric === metric && c.split === split && c.stratum === stratum);
}

export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(3);
}

export function formatInterval(ci: Interval | null): string {
  return ci ? `[${ci.low.toFixed(3)}, ${ci.high.toFixed(3)}]` : '—';
}

export function formatChange(pct: number | null): string {
  if (pct === null) return '—';
  const sign = pct > 0 ? '+' : '';
  return `${sign}${pct.toFixed(1)}%`;
}

/** A clause as a sentence: its first letter upper-case. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
