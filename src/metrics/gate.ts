/** Pure helpers: the gate's thresholds by metric and the 2×2 diagnosis (the weekly gate itself: experiment/gate.ts). */
import { getMetric } from './registry.js';
import type { MetricName } from './types.js';

/** `metrics.thresholds`: the metrics the gate decides on, each with its threshold. */
export type Thresholds = Partial<Record<MetricName, number>>;

export type DiagnosisStatus = 'healthy' | 'retrieval_gap' | 'hallucination' | 'compound_failure';

export interface Diagnosis {
  status: DiagnosisStatus;
  action: string;
  priority: 'none' | 'high' | 'critical';
  /**
   * The adversarial questions beside the 2×2: `declines` when the RAG declined enough false premises and
   * unanswerable questions, `answers` when it answered them with confidence (the gate's abstention check failed),
   * absent when abstention was not judged.
   */
  adversarial?: 'declines' | 'answers';
}

/**
 * Faithfulness × context recall:
 *   both high → healthy; faithful but low recall → retrieval gap; high recall but unfaithful →
 *   hallucination; both low → compound failure (fix retrieval first).
 * Beside it the adversarial questions: a RAG that answers false premises is critical in any quadrant.
 */
export function diagnose(
  scores: { faithfulness: number; context_recall: number },
  thresholds: Thresholds = {},
  adversarial?: 'declines' | 'answers',
): Diagnosis {
  const base = quadrant(scores, thresholds);
  if (adversarial === undefined) return base;
  if (adversarial === 'declines') return { ...base, adversarial };
  // Confident answers to false premises are hallucinations whatever the 2×2 says about grounded questions.
  const guard = 'make the prompt decline questions the context cannot answer or whose premise it contradicts';
  return {
    ...base,
    adversarial,
    action: base.status === 'healthy' ? guard : `${base.action}; and ${guard}`,
    priority: 'critical',
  };
}

function quadrant(scores: { faithfulness: number; context_recall: number }, thresholds: Thresholds): Diagnosis {
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
