/**
 * Scoring anchors with the judge: when the anchor set is built (the scores stored), and each week before the
 * experiment (the re-scores `judgeDrift` compares with them). A sample whose judge call failed is left out of
 * the week's re-scores (drift counts it as missing); one the judge found not scorable scores null.
 */
import { mapLimited } from '../internal/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import { type MetricsOptions, scoreSample, type MetricName } from '../metrics/index.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { AnchorSample } from './anchor-file.js';
import type { AnchorScore } from './drift.js';

export interface AnchorScoringDeps {
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  options: MetricsOptions;
  concurrency: number;
  signal?: AbortSignal;
}

export interface AnchorScoring {
  scores: AnchorScore[];
  /** Judge calls that failed after their retries, by failure kind. */
  failed: Record<string, number>;
}

export async function scoreAnchors(
  samples: ReadonlyArray<Omit<AnchorSample, 'scores'>>,
  metrics: readonly MetricName[],
  deps: AnchorScoringDeps,
): Promise<AnchorScoring> {
  const byId = new Map<string, AnchorScore[]>();
  const failed: Record<string, number> = {};
  await mapLimited(samples, deps.concurrency, async (s) => {
    const sample = { traceId: s.id, question: s.question, answer: s.answer, contexts: s.contexts, meta: {} };
    const results = await scoreSample(s.language ? { ...sample, language: s.language } : sample, metrics, {
      judge: deps.judge,
      embeddings: deps.embeddings,
      options: deps.options,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    const scores: AnchorScore[] = [];
    for (const r of results) {
      if (r.status === 'scored') scores.push({ anchorId: s.id, metric: r.metric, score: r.value });
      else if (r.status === 'not_scorable') scores.push({ anchorId: s.id, metric: r.metric, score: null });
      else failed[r.kind ?? 'failed'] = (failed[r.kind ?? 'failed'] ?? 0) + 1;
    }
    byId.set(s.id, scores);
  });
  // In sample order, whatever order the calls finished in.
  return { scores: samples.flatMap((s) => byId.get(s.id) ?? []), failed };
}

/**
 * Samples as the judge will see them, every week: anonymized once, here. A sample with personal data left after
 * anonymization is not an anchor (it would reach the judge).
 */
export function anonymizedAnchors(
  samples: ReadonlyArray<Omit<AnchorSample, 'scores'>>,
  anonymizer: SampleAnonymizer,
): { kept: Array<Omit<AnchorSample, 'scores'>>; personalData: number } {
  const kept: Array<Omit<AnchorSample, 'scores'>> = [];
  let personalData = 0;
  for (const s of samples) {
    const a = anonymizer.anonymizeSample({
      traceId: s.id,
      question: s.question,
      answer: s.answer,
      contexts: s.contexts,
      meta: {},
    });
    if (a.residual.length > 0) {
      personalData++;
      continue;
    }
    kept.push({ ...s, question: a.sample.question, answer: a.sample.answer, contexts: a.sample.contexts });
  }
  return { kept, personalData };
}
