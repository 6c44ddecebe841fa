/**
 * A scripted person working the calibration queue through Langfuse's public API, the way clicks in the
 * annotation UI end up: for each pending item, one `human-<metric>` score per calibrated metric with source
 * ANNOTATION, the queue's score config and a comment, then the item marked completed. Their answers follow the
 * judge's score with a planted probability (`annotate`'s model), else an independent draw — so the figures the
 * report prints can be checked against the agreement planted.
 */
import { humanScoreName, HUMAN_COMMENT_SCORE } from 'ragwatch/calibrate/human-scores.js';
import {
  listAnnotationQueues,
  listQueueItems,
  updateQueueItem,
} from 'ragwatch/langfuse/resources/annotation-queues.js';
import { createAnnotationScore, listAnnotationScores } from 'ragwatch/langfuse/resources/annotation-scores.js';
import type { LangfuseHttp } from 'ragwatch/langfuse/core/http.js';
import { listScoreConfigs } from 'ragwatch/langfuse/resources/score-configs.js';
import type { ApiGeneration } from 'ragwatch/langfuse/core/types.js';
import { createRng } from '../corpus/random.js';
import { onScale } from './annotator.js';

export interface QueueAnnotatorOptions {
  queueName: string;
  /** ragwatch's metric → the judge's score name (`faithfulness` → `ragas-faithfulness`). */
  judgeScoreNames: Readonly<Record<string, string>>;
  /** Probability that an answer follows the judge's score. */
  agreement: number;
  seed: string;
  scale: 'levels' | 'numeric';
  /** A comment per answer; default names the level and, for a disagreement, says so. */
  comment?: (traceId: string, metric: string, human: number, judge: number) => string;
  /** Items left pending (a person who has not got to them yet). */
  skip?: (traceId: string) => boolean;
}

export interface QueueAnnotation {
  traceId: string;
  metric: string;
  judge: number;
  human: number;
}

const LABELS = ['unsupported', 'partly', 'supported'] as const;

export async function annotateCalibrationQueue(
  http: LangfuseHttp,
  generation: ApiGeneration,
  options: QueueAnnotatorOptions,
): Promise<QueueAnnotation[]> {
  const queue = (await listAnnotationQueues(http)).find((q) => q.name === options.queueName);
  if (!queue) throw new Error(`no annotation queue named "${options.queueName}"`);
  const configs = (await listScoreConfigs(http)).filter((c) => queue.scoreConfigIds.includes(c.id));
  const configId = (name: string) => {
    const c = configs.find((x) => x.name === name);
    if (!c) throw new Error(`the queue has no score config "${name}"`);
    return c.id;
  };
  const judgeNames = Object.values(options.judgeScoreNames);
  const everything = { names: judgeNames, source: 'API' as const, from: '2000-01-01T00:00:00Z' };
  const judged = await listAnnotationScores(http, generation, everything);
  const rng = createRng(`queue-annotator/${options.seed}`);
  const out: QueueAnnotation[] = [];
  for (const item of await listQueueItems(http, queue.id, { status: 'PENDING' })) {
    if (options.skip?.(item.objectId)) continue;
    for (const [metric, judgeName] of Object.entries(options.judgeScoreNames)) {
      const judge = judged.find((s) => s.traceId === item.objectId && s.name === judgeName)?.value;
      const follows = rng.next() < options.agreement;
      // An independent opinion: another trace's judge score of the metric (the judge's own distribution).
      const pool = judged.filter((s) => s.name === judgeName && typeof s.value === 'number');
      const other = pool.length > 0 ? (pool[rng.int(pool.length)]!.value as number) : rng.next();
      if (typeof judge !== 'number') continue;
      const raw = follows ? judge : other;
      const human = onScale(raw, options.scale === 'levels' ? 'levels' : 'continuous');
      const value = options.scale === 'levels' ? LABELS[human * 2]! : human;
      const comment = options.comment?.(item.objectId, metric, human, judge) ?? defaultComment(human, judge);
      const name = humanScoreName(metric);
      await createAnnotationScore(http, {
        traceId: item.objectId,
        name,
        value,
        configId: configId(name),
        queueId: queue.id,
        comment,
      });
      out.push({ traceId: item.objectId, metric, judge, human });
    }
    const note = 'scripted annotator: read the answer against its contexts';
    await createAnnotationScore(http, {
      traceId: item.objectId,
      name: HUMAN_COMMENT_SCORE,
      value: note,
      configId: configId(HUMAN_COMMENT_SCORE),
      queueId: queue.id,
    });
    await updateQueueItem(http, queue.id, item.id, { status: 'COMPLETED' });
  }
  return out;
}

function defaultComment(human: number, judge: number): string {
  const level = LABELS[Math.round(human * 2)];
  return Math.abs(human - judge) >= 0.25
    ? `${level}: the answer reads otherwise than the judge scored it`
    : `${level}: agrees with the contexts as read`;
}
