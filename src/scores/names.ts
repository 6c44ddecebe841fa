/** The names ragwatch's scores carry in Langfuse, for both jobs and for reading earlier runs back. */
import type { MetricName } from '../metrics/index.js';

/** `ragas-` + the metric with dashes: `ragas-faithfulness`, `ragas-answer-relevancy`. */
export function scoreNameFor(prefix: string, metric: MetricName): string {
  return `${prefix}${metric.replaceAll('_', '-')}`;
}

/** Score name → metric, for reading earlier runs back. */
export function metricOfScore(prefix: string, metrics: readonly MetricName[]): Map<string, MetricName> {
  return new Map(metrics.map((m) => [scoreNameFor(prefix, m), m]));
}

/** Online trace score: 1 when the answer holds personal data its question and contexts did not (online/answer-leak.ts). */
export const ANSWER_LEAK_SCORE = 'ragwatch-answer-leak';

/** Trace score of adversarial golden items (1 abstained, 0 answered) and, on the run, the abstention rate. */
export const ABSTENTION_SCORE = 'rag-abstention';
/** Run-level: 1 when the release gate passed, 0 when it failed. */
export const GATE_SCORE = 'rag-gate';
/** Run-level: mean faithfulness clean − noisy, in [−1, 1]. */
export const NOISE_DELTA_SCORE = 'rag-noise-delta-faithfulness';
