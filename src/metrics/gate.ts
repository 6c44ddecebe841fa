/** Pure helpers of the second seed: the release gate against thresholds and the 2×2 diagnosis. */
import type { RagwatchConfig } from '../config/schema.js';

export type Thresholds = RagwatchConfig['metrics']['thresholds'];
export type GatedMetric = keyof Thresholds;

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

/** Every gated metric must reach its threshold (value ≥ threshold). */
export function releaseGate(scores: Partial<Record<string, number | undefined>>, thresholds: Thresholds): GateResult {
  const failures: GateFailure[] = [];
  const missing: GatedMetric[] = [];
  for (const metric of Object.keys(thresholds) as GatedMetric[]) {
    const threshold = thresholds[metric];
    const value = scores[metric];
    if (value === undefined || !Number.isFinite(value)) missing.push(metric);
    else if (value < threshold) failures.push({ metric, value, threshold });
  }
  const lines = [
    ...failures.map((f) => `${f.metric}: ${f.value.toFixed(3)} < ${f.threshold}`),
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
  thresholds: Pick<Thresholds, 'faithfulness' | 'context_recall'> = { faithfulness: 0.85, context_recall: 0.8 },
): Diagnosis {
  const faithful = scores.faithfulness >= thresholds.faithfulness;
  const recalled = scores.context_recall >= thresholds.context_recall;
  if (faithful && recalled) return { status: 'healthy', action: 'monitor', priority: 'none' };
  if (faithful) return { status: 'retrieval_gap', action: 'improve retriever (chunking/hybrid/filters)', priority: 'high' };
  if (recalled) return { status: 'hallucination', action: 'fix prompt to enforce grounding; consider stronger model', priority: 'critical' };
  return { status: 'compound_failure', action: 'fix retrieval first, then generation', priority: 'critical' };
}
