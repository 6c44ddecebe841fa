import { type EmbeddingsClient, type JudgeClient, JudgeCallError } from '../judge/index.js';
import { scoreSample, type MetricsOptions, type MetricName, type MetricResult } from '../metrics/index.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { RagSample } from '../sample.js';
import { judgeAbstention } from './abstention.js';
import type { GoldenItem } from './items.js';

export interface ItemScoringDeps {
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  options: MetricsOptions;
  /** Identity when `experiment.anonymize` is off. */
  anonymizer: SampleAnonymizer;
  metrics: readonly MetricName[];
}

export interface ItemScores {
  results: MetricResult[];
  /** Adversarial items: whether the RAG abstained; null when it could not be judged (personal data left, or a failure). */
  abstained?: boolean | null;
  /** Adversarial items: the judgement failed after its retries (the judge failure kind). */
  abstentionFailure?: string;
  abstentionReason?: string;
  abstentionPromptVersion?: string;
  /** Personal data survived anonymization: nothing reached the judge. */
  piiBlocked: boolean;
}

/**
 * Scores one answered item: the metrics for ordinary items, abstention for adversarial ones. The sample is
 * anonymized first (question, answer, contexts and reference share one mapping); a sample with personal data
 * left over is not sent to the judge.
 */
export async function scoreItem(
  item: GoldenItem,
  answer: { answer: string; contexts: string[] },
  deps: ItemScoringDeps,
  signal?: AbortSignal,
): Promise<ItemScores> {
  const sample: RagSample = {
    traceId: item.id,
    question: item.question,
    answer: answer.answer,
    contexts: answer.contexts,
    ...(item.reference ? { reference: item.reference } : {}),
    meta: { stratum: item.stratum, split: item.split },
  };
  const anonymized = deps.anonymizer.anonymizeSample(sample);
  if (anonymized.residual.length > 0) {
    if (item.adversarial) return { results: [], abstained: null, piiBlocked: true };
    return {
      results: deps.metrics.map((metric) => ({ metric, status: 'not_scorable', reason: 'pii_residual' })),
      piiBlocked: true,
    };
  }
  if (item.adversarial) {
    const language = deps.options.language;
    try {
      const verdict = await judgeAbstention(deps.judge, anonymized.sample, { language, ...(signal ? { signal } : {}) });
      return {
        results: [],
        abstained: verdict.abstained,
        abstentionReason: verdict.reason,
        abstentionPromptVersion: verdict.promptVersion,
        piiBlocked: false,
      };
    } catch (err) {
      // A judgement that failed is that item's failure, never "did not abstain".
      const kind = err instanceof JudgeCallError ? err.kind : 'internal';
      return { results: [], abstained: null, abstentionFailure: kind, piiBlocked: false };
    }
  }
  const results = await scoreSample(anonymized.sample, deps.metrics, {
    judge: deps.judge,
    embeddings: deps.embeddings,
    options: deps.options,
    ...(signal ? { signal } : {}),
  });
  return { results, piiBlocked: false };
}

/** Faithfulness of the same item answered with distractors: the noisy half of ΔFaithfulness. */
export async function noisyFaithfulness(
  item: GoldenItem,
  answer: { answer: string; contexts: string[] },
  deps: ItemScoringDeps,
  signal?: AbortSignal,
): Promise<MetricResult | null> {
  const scores = await scoreItem(
    { ...item, adversarial: false },
    answer,
    { ...deps, metrics: ['faithfulness'] },
    signal,
  );
  return scores.results[0] ?? null;
}
