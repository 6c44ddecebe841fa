import type { MetricName } from '../../metrics/index.js';
import type { Interval } from '../stats.js';
import type { ExperimentReport } from './model.js';

/** One row of the report's one comparison table: the previous run's mean, this run's, and the paired change. */
export interface ComparisonRow {
  metric: MetricName;
  previous: number | null;
  current: number | null;
  /** (current − previous) / previous × 100. */
  changePct: number | null;
  /** Mean of the per-item differences (paired), with its 95 % interval and the items both runs scored. */
  pairedDelta: number | null;
  ci: Interval | null;
  n: number;
  flag: 'regression' | 'improvement' | null;
  /** The metric's definition differs between the runs: the values are shown, not compared. */
  definitionChange: { previous: string; current: string } | null;
}

export function comparisonRows(report: Pick<ExperimentReport, 'comparison' | 'baseline'>): ComparisonRow[] {
  if (!report.comparison) return [];
  return report.comparison.perMetric.map(({ metric, comparison: p, definitionChange }) => {
    const b = report.baseline.find((row) => row.metric === metric);
    return {
      metric,
      previous: b?.baseline ?? null,
      current: b?.current ?? null,
      changePct: b?.changePct ?? null,
      pairedDelta: p.meanDelta,
      ci: p.ci,
      n: p.n,
      flag: definitionChange ? null : p.regression ? 'regression' : p.improvement ? 'improvement' : null,
      definitionChange,
    };
  });
}

export function formatSigned(value: number | null): string {
  if (value === null) return '—';
  return `${value > 0 ? '+' : ''}${value.toFixed(3)}`;
}

/** What the flag column says when a definition changed between the runs. */
export function definitionChangeText(change: { previous: string; current: string }): string {
  return `definition changed (${change.previous} → ${change.current}): not compared`;
}
