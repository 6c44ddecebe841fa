/** Pure helpers of the second seed: the release gate against thresholds and the 2×2 diagnosis. */
import { getMetric } from './registry.js';
import type { MetricName } from './types.js';

/** `metrics.thresholds`: the metrics the gate decides on, each with its threshold. */
export type Thresholds = Partial<Record<MetricName, number>>;
export type GatedMetric = MetricName;

export interface GateFailure {
  metric: GatedMetric;
  value: number;
  threshold: number;
}

export interface GateResult {
  passed: boolean;
  failures: GateFailure[];
  /** Gated metrics without a value: the gate cannot pass on missing evidence, and none is counted as 0. */
  missing: GatedMetric[];
  /** One line per failure or missing metric, e.g. `faithfulness: 0.712 < 0.85`. */
  lines: string[];
}

/** The metrics `thresholds` gates on, with their thresholds. */
export function gatedMetrics(thresholds: Thresholds): Array<[GatedMetric, number]> {
  return (Object.entries(thresholds) as Array<[GatedMetric, number | undefined]>).flatMap(([metric, threshold]) =>
    threshold === undefined ? [] : [[metric, threshold] as [GatedMetric, number]],
  );
}

/** Every gated metric must reach its threshold: value ≥ threshold, or ≤ when lower is better. */
export function releaseGate(scores: Partial<Record<string, number | undefined>>, thresholds: Thresholds): GateResult {
  const failures: GateFailure[] = [];
  const missing: GatedMetric[] = [];
  for (const [metric, threshold] of gatedMetrics(thresholds)) {
    const value = scores[metric];
    if (value === undefined || !Number.isFinite(value)) missing.push(metric);
    else if (getMetric(metric).higherIsBetter ? value < threshold : value > threshold) {
      failures.push({ metric, value, threshold });
    }
  }
  const lines = [
    ...failures.map(
      (f) => `${f.metric}: ${f.value.toFixed(3)} ${getMetric(f.metric).higherIsBetter ? '<' : '>'} ${f.threshold}`,
    ),
    ...missing.map((m) => `${m}: no value (threshold ${thresholds[m]})`),
  ];
  return { passed: failures.length === 0 && missing.length === 0, failures, missing, lines };
}

export type DiagnosisStatus = 'healthy' | 'retrieval_gap' | 'hallucination' | 'compound_failure';

export interface Diagnosis {
  status: DiagnosisStatus;
  action: string;
  priority: 'none' | 'high' | 'critical';
}

/**
 * Faithfulness × context recall:
 *   both high → healthy; faithful but low recall → retrieval gap; high recall but unfaithful →
 *   hallucination; both low → compound failure (fix retrieval first).
 */
export function diagnose(
  scores: { faithfulness: number; context_recall: number },
  thresholds: Thresholds = {},
): Diagnosis {
  const faithful = scores.faithfulness >= (thresholds.faithfulness ?? getMetric('faithfulness').defaultThreshold ?? 0);
  const recalled =
    scores.context_recall >= (thresholds.context_recall ?? getMetric('context_recall').defaultThreshold ?? 0);
  if (faithful && recalled) return { status: 'healthy', action: 'monitor', priority: 'none' };
  if (faithful)
    return { status: 'retrieval_gap', action: 'improve retriever (chunking/hybrid/filters)', priority: 'high' };
  if (recalled)
    return {
      status: 'hallucination',
      action: 'fix prompt to enforce grounding; consider stronger model',
      priority: 'critical',
    };
  return { status: 'compound_failure', action: 'fix retrieval first, then generation', priority: 'critical' };
}
