import { createHash } from 'node:crypto';
import {
  listAnnotationQueues,
  listQueueItems,
  updateQueueItem,
} from 'ragwatch/langfuse/resources/annotation-queues.js';
import { createAnnotationScore } from 'ragwatch/langfuse/resources/annotation-scores.js';
import type { LangfuseHttp } from 'ragwatch/langfuse/core/http.js';
import { listScoreConfigs } from 'ragwatch/langfuse/resources/score-configs.js';

/**
 * A scripted reviewer for the golden-set queue, working through Langfuse's public API the way a person's clicks
 * in the annotation UI end up: for each pending item, a `golden-review` decision (and, for a rejection, a
 * `golden-review-note`) with source ANNOTATION in the queue, then the item marked completed.
 */

export type ReviewLabel = 'accept' | 'reject-trivial' | 'reject-parametric' | 'reject-ambiguous';

export interface ReviewerOptions {
  queueName: string;
  /** The decision for a review trace (by its id); `null` leaves the item pending. Default: `seededDecisions()`. */
  decide?: (traceId: string) => ReviewLabel | null;
  /** The annotation's timestamp is the server's clock; decisions replace earlier ones on the same trace. */
  signal?: AbortSignal;
}

/** Accepts about `acceptRate` of the items, rejecting the rest in turn as trivial, parametric or ambiguous; seeded by trace id. */
export function seededDecisions(acceptRate = 0.8, seed = 'demo-reviewer'): (traceId: string) => ReviewLabel {
  const rejections: ReviewLabel[] = ['reject-trivial', 'reject-parametric', 'reject-ambiguous'];
  return (traceId) => {
    const digest = createHash('sha256').update(`${seed}\0${traceId}`).digest();
    const u = digest.readUInt32BE(0) / 2 ** 32;
    return u < acceptRate ? 'accept' : rejections[digest[4]! % rejections.length]!;
  };
}

export async function reviewGoldenQueue(
  http: LangfuseHttp,
  options: ReviewerOptions,
): Promise<Record<ReviewLabel, number>> {
  const decide = options.decide ?? seededDecisions();
  const queue = (await listAnnotationQueues(http, options.signal)).find((q) => q.name === options.queueName);
  if (!queue) throw new Error(`no annotation queue named "${options.queueName}"`);
  const configs = await listScoreConfigs(http, options.signal);
  const configId = (name: string) => {
    const c = configs.find((x) => x.name === name && !x.isArchived && queue.scoreConfigIds.includes(x.id));
    if (!c) throw new Error(`the queue has no score config "${name}"`);
    return c.id;
  };
  const counts: Record<ReviewLabel, number> = {
    accept: 0,
    'reject-trivial': 0,
    'reject-parametric': 0,
    'reject-ambiguous': 0,
  };
  for (const item of await listQueueItems(http, queue.id, {
    status: 'PENDING',
    ...(options.signal ? { signal: options.signal } : {}),
  })) {
    const label = decide(item.objectId);
    if (label === null) continue;
    await createAnnotationScore(
      http,
      {
        traceId: item.objectId,
        name: 'golden-review',
        value: label,
        configId: configId('golden-review'),
        queueId: queue.id,
      },
      options.signal,
    );
    if (label !== 'accept') {
      const note = {
        traceId: item.objectId,
        name: 'golden-review-note',
        value: `scripted reviewer: ${label}`,
        configId: configId('golden-review-note'),
        queueId: queue.id,
      };
      await createAnnotationScore(http, note, options.signal);
    }
    await updateQueueItem(http, queue.id, item.id, { status: 'COMPLETED' }, options.signal);
    counts[label] += 1;
  }
  return counts;
}
