/**
 * The calibration's Prometheus gauges, as the state store persists them (by series name, like the golden-set
 * gauges): `rag_judge_human_agreement{metric}` (Cohen's κ on pass/fail at the gate threshold, over every
 * annotated pair of the metric, published from `calibrate.minPairs` pairs on) with its configured floor, and
 * `rag_judge_drift{metric}` (the anchors' mean absolute change) with its tolerance.
 */
import type { CalibrateConfig } from '../config/index.js';
import type { DriftReport } from './drift.js';
import type { CalibrationSummary } from './report.js';

export const AGREEMENT_GAUGE = 'rag_judge_human_agreement';
export const AGREEMENT_FLOOR_GAUGE = 'rag_judge_human_agreement_floor';
export const DRIFT_GAUGE = 'rag_judge_drift';
export const DRIFT_TOLERANCE_GAUGE = 'rag_judge_drift_tolerance';

export function seriesKey(gauge: string, metric: string): string {
  return `${gauge}{metric="${metric}"}`;
}

/** Parses a key made by `seriesKey` for the two per-metric gauges; null for any other name. */
export function parseCalibrationKey(name: string): { gauge: string; metric: string } | null {
  const m = /^(rag_judge_human_agreement|rag_judge_drift)\{metric="([a-z_]+)"\}$/.exec(name);
  return m ? { gauge: m[1] as string, metric: m[2] as string } : null;
}

export function calibrationGaugeValues(
  summary: CalibrationSummary,
  cfg: Pick<CalibrateConfig, 'agreementFloor' | 'minPairs'>,
): Record<string, number> {
  const out: Record<string, number> = { [AGREEMENT_FLOOR_GAUGE]: cfg.agreementFloor };
  for (const cell of summary.table.cells) {
    if (cell.language !== null || cell.stratum !== null || cell.n < cfg.minPairs) continue;
    const kappa = cell.figures.find((f) => f.statistic === 'kappa');
    if (kappa?.estimable) out[seriesKey(AGREEMENT_GAUGE, cell.metric)] = kappa.value;
  }
  return out;
}

export function driftGaugeValues(drift: DriftReport): Record<string, number> {
  const out: Record<string, number> = { [DRIFT_TOLERANCE_GAUGE]: drift.tolerance };
  for (const m of drift.metrics) {
    if (m.meanAbsoluteChange !== null) out[seriesKey(DRIFT_GAUGE, m.metric)] = m.meanAbsoluteChange;
  }
  return out;
}
