import type { ExperimentReport } from './report/index.js';

export const GOLDEN_SCORE_GAUGE = 'rag_golden_score';
export const GOLDEN_GATE_GAUGE = 'rag_golden_gate_passed';
/** 1 when the last complete run's gate had not enough evidence to decide (then `rag_golden_gate_passed` is 0). */
export const GOLDEN_GATE_INCONCLUSIVE_GAUGE = 'rag_golden_gate_inconclusive';
export const GOLDEN_RUN_TIME_GAUGE = 'rag_golden_last_run_timestamp_seconds';

/** The persisted name of one `rag_golden_score` series (the state store keeps gauges by name). */
export function goldenScoreKey(metric: string, split: string): string {
  return `${GOLDEN_SCORE_GAUGE}{metric="${metric}",split="${split}"}`;
}

/** Parses a key made by `goldenScoreKey`; null for any other name. */
export function parseGoldenScoreKey(name: string): { metric: string; split: string } | null {
  const m = /^rag_golden_score\{metric="([a-z_]+)",split="([A-Za-z0-9_-]+)"\}$/.exec(name);
  return m ? { metric: m[1] as string, split: m[2] as string } : null;
}

/**
 * Gauge values of a finished run: each metric's mean per split (all strata), the gate verdict (passed 1 or 0;
 * inconclusive 1 when there was not enough evidence to decide) and when the run finished. Splits without items
 * keep their previous value.
 */
export function goldenGaugeValues(report: ExperimentReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const cell of report.cells) {
    if (cell.stratum !== 'all' || cell.summary.mean === null) continue;
    out[goldenScoreKey(cell.metric, cell.split)] = cell.summary.mean;
  }
  if (report.gate) {
    out[GOLDEN_GATE_GAUGE] = report.gate.passed ? 1 : 0;
    out[GOLDEN_GATE_INCONCLUSIVE_GAUGE] = report.gate.outcome === 'not_enough_evidence' ? 1 : 0;
  }
  out[GOLDEN_RUN_TIME_GAUGE] = Date.parse(report.finishedAt) / 1000;
  return out;
}
