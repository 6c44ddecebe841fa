import type { ScoreToWrite } from '../langfuse/scores.js';
import { getMetric } from '../metrics/registry.js';
import type { MetricResult } from '../metrics/types.js';
import type { SampleAnonymizer } from '../online/ports.js';
import { MAX_COMMENT_LENGTH } from '../online/scores.js';
import { VERSION } from '../version.js';
import type { GoldenItem } from './items.js';
import { ABSTENTION_SCORE, scoreNameFor } from './score-names.js';
import type { ItemScores } from './score-item.js';

export interface TraceScoreContext {
  traceId: string;
  /** ISO time of the item's execution: the score timestamp. */
  timestamp: string;
  runName: string;
  scorePrefix: string;
  judgeModel: string;
  configIds: ReadonlyMap<string, string>;
  anonymizer: SampleAnonymizer;
}

/** The item's scores on its trace: one per scored metric, `rag-abstention` for adversarial items. */
export function traceScores(item: GoldenItem, scores: ItemScores, ctx: TraceScoreContext): ScoreToWrite[] {
  const out: ScoreToWrite[] = [];
  const common = { source: 'ragwatch', ragwatchVersion: VERSION, judgeModel: ctx.judgeModel, runName: ctx.runName, datasetItemId: item.id, stratum: item.stratum, split: item.split };
  const add = (name: string, value: number, reason: string | undefined, metadata: Record<string, unknown>) => {
    const score: ScoreToWrite = { traceId: ctx.traceId, name, value, timestamp: ctx.timestamp, metadata: { ...common, ...metadata } };
    const comment = reason ? sanitize(ctx.anonymizer, ctx.traceId, reason) : null;
    if (comment) score.comment = comment;
    const configId = ctx.configIds.get(name);
    if (configId) score.configId = configId;
    out.push(score);
  };
  for (const r of scores.results as MetricResult[]) {
    if (r.status !== 'scored') continue;
    add(scoreNameFor(ctx.scorePrefix, r.metric), r.value, r.reason, {
      metric: r.metric,
      definitionVersion: getMetric(r.metric).definitionVersion,
      promptVersion: r.promptVersion,
      usage: { calls: r.usage.calls, promptTokens: r.usage.promptTokens, completionTokens: r.usage.completionTokens },
    });
  }
  if (item.adversarial && typeof scores.abstained === 'boolean') {
    add(ABSTENTION_SCORE, scores.abstained ? 1 : 0, scores.abstentionReason, { metric: 'abstention', promptVersion: scores.abstentionPromptVersion });
  }
  return out;
}

/** The judge's reason can only quote the anonymized sample; it is anonymized again and dropped if anything is left. */
function sanitize(anonymizer: SampleAnonymizer, traceId: string, text: string): string | null {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const short = oneLine.length <= MAX_COMMENT_LENGTH ? oneLine : `${oneLine.slice(0, MAX_COMMENT_LENGTH - 1)}…`;
  try {
    const again = anonymizer.anonymizeSample({ traceId, question: '', answer: short, contexts: [], meta: {} });
    return again.residual.length > 0 ? null : again.sample.answer || null;
  } catch {
    return null;
  }
}
