import { usageMetadata, type Pricing } from '../judge/index.js';
import type { ScoreToWrite } from '../langfuse/index.js';
import { getMetric, type MetricResult } from '../metrics/index.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import { ABSTENTION_SCORE, publishableComment, scoreNameFor, shortenComment } from '../scores/index.js';
import { VERSION } from '../version.js';
import type { GoldenItem } from './items.js';
import type { ItemScores } from './score-item.js';

export interface TraceScoreContext {
  traceId: string;
  /** ISO time of the item's execution: the score timestamp. */
  timestamp: string;
  runName: string;
  scorePrefix: string;
  judgeModel: string;
  /** `judge.pricing`: each score's usage then carries its cost. */
  pricing?: Pricing;
  configIds: ReadonlyMap<string, string>;
  anonymizer: SampleAnonymizer;
}

/** The item's scores on its trace: one per scored metric, `rag-abstention` for adversarial items. */
export function traceScores(item: GoldenItem, scores: ItemScores, ctx: TraceScoreContext): ScoreToWrite[] {
  const out: ScoreToWrite[] = [];
  const common = {
    source: 'ragwatch',
    ragwatchVersion: VERSION,
    judgeModel: ctx.judgeModel,
    runName: ctx.runName,
    datasetItemId: item.id,
    stratum: item.stratum,
    split: item.split,
  };
  const add = (name: string, value: number, reason: string | undefined, metadata: Record<string, unknown>) => {
    const score: ScoreToWrite = {
      traceId: ctx.traceId,
      name,
      value,
      timestamp: ctx.timestamp,
      metadata: { ...common, ...metadata },
    };
    const comment = reason ? publishableComment(ctx.anonymizer, ctx.traceId, shortenComment(reason)) : null;
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
      ...(r.language ? { language: r.language } : {}),
      usage: usageMetadata(r.usage, ctx.pricing),
    });
  }
  if (item.adversarial && typeof scores.abstained === 'boolean') {
    add(ABSTENTION_SCORE, scores.abstained ? 1 : 0, scores.abstentionReason, {
      metric: 'abstention',
      promptVersion: scores.abstentionPromptVersion,
    });
  }
  return out;
}
