/**
 * The calibration's Langfuse edges: ragwatch's own scores (by name AND source `API` AND ragwatch's metadata, so a
 * person's score never counts as the judge's), people's scores (source `ANNOTATION`, the `human-…` names), and
 * the annotation queue whose score configs mirror the metrics.
 */
import {
  addQueueItem,
  annotationQueueConflict,
  ensureAnnotationQueue,
  listAnnotationQueues,
  listQueueItems,
  listAnnotationScores,
  type AnnotationScore,
  type LangfuseHttp,
  isOwnScore,
  ensureScoreConfigs,
  type ApiGeneration,
} from '../langfuse/index.js';
import type { InputError } from '../errors.js';
import type { MetricName } from '../metrics/index.js';
import { scoreNameFor } from '../scores/index.js';
import {
  HUMAN_COMMENT_SCORE,
  humanScoreConfigs,
  humanScoreName,
  humanValue,
  metricOfHumanScore,
  type HumanScale,
} from './human-scores.js';
import type { HumanScoreRow, JudgeScoreRow } from './scored-traces.js';

export interface ScoreWindow {
  /** ISO 8601, inclusive. */
  from: string;
  /** ISO 8601, exclusive; open when absent. */
  to?: string;
  signal?: AbortSignal;
}

export interface CalibrationLangfuse {
  http: LangfuseHttp;
  generation: ApiGeneration;
}

/** Is this one of ragwatch's own scores: source API and written by ragwatch (its metadata says so)? */
export function isJudgeScore(score: Pick<AnnotationScore, 'source' | 'metadata'>): boolean {
  return isOwnScore(score) && score.metadata?.source === 'ragwatch';
}

/** ragwatch's scores of `metrics` on traces in the window. */
export async function readJudgeScores(
  lf: CalibrationLangfuse,
  metrics: readonly MetricName[],
  scorePrefix: string,
  window: ScoreWindow,
): Promise<JudgeScoreRow[]> {
  const metricOf = new Map(metrics.map((m) => [scoreNameFor(scorePrefix, m), m as string]));
  const scores = await listAnnotationScores(lf.http, lf.generation, {
    names: [...metricOf.keys()],
    source: 'API',
    from: window.from,
    ...(window.to ? { to: window.to } : {}),
    ...(window.signal ? { signal: window.signal } : {}),
  });
  return scores.flatMap((s): JudgeScoreRow[] => {
    const metric = metricOf.get(s.name);
    const value = s.value;
    if (!metric || !s.traceId || s.observationId || !isJudgeScore(s)) return [];
    if (typeof value !== 'number' || !Number.isFinite(value)) return [];
    return [{ traceId: s.traceId, metric, value, comment: s.comment, metadata: s.metadata, timestamp: s.timestamp }];
  });
}

/** People's scores of `metrics` (and their free comments) in the window, in any queue or none. */
export async function readHumanScores(
  lf: CalibrationLangfuse,
  metrics: readonly MetricName[],
  window: ScoreWindow,
): Promise<HumanScoreRow[]> {
  const names = [...metrics.map(humanScoreName), HUMAN_COMMENT_SCORE];
  const scores = await listAnnotationScores(lf.http, lf.generation, {
    names,
    source: 'ANNOTATION',
    from: window.from,
    ...(window.to ? { to: window.to } : {}),
    ...(window.signal ? { signal: window.signal } : {}),
  });
  return scores.flatMap((s): HumanScoreRow[] => {
    if (!s.traceId || s.observationId || s.source.toUpperCase() !== 'ANNOTATION') return [];
    if (s.name === HUMAN_COMMENT_SCORE) {
      const said = s.stringValue ?? s.comment;
      return said ? [{ traceId: s.traceId, metric: null, value: null, comment: said, timestamp: s.timestamp }] : [];
    }
    const metric = metricOfHumanScore(s.name, metrics);
    if (!metric) return [];
    return [{ traceId: s.traceId, metric, value: humanValue(s), comment: s.comment, timestamp: s.timestamp }];
  });
}

export interface CalibrationQueue {
  id: string;
  /** Score config id by score name. */
  configIds: Map<string, string>;
}

/** The queue of that name with the metrics' score configs on the configured scale (created when missing). */
export async function ensureCalibrationQueue(
  lf: CalibrationLangfuse,
  name: string,
  metrics: readonly MetricName[],
  scale: HumanScale,
  signal?: AbortSignal,
): Promise<CalibrationQueue> {
  const configIds = await ensureScoreConfigs(lf.http, humanScoreConfigs(metrics, scale), signal);
  const description =
    'ragwatch calibration: score what the judge scored, without looking at its score. ' +
    'unsupported / partly / supported: how much of the answer its retrieved contexts support (faithfulness), ' +
    'how directly it answers the question (answer relevancy). Say why in the comment.';
  const queue = await ensureAnnotationQueue(
    lf.http,
    { name, description, scoreConfigs: configIds, settingKey: 'calibrate.queue' },
    signal,
  );
  return { id: queue.id, configIds };
}

/** Why `ensureCalibrationQueue` would refuse the queue of that name (read only, for `--dry-run`), else null. */
export async function calibrationQueueConflict(
  lf: CalibrationLangfuse,
  name: string,
  metrics: readonly MetricName[],
  scale: HumanScale,
  signal?: AbortSignal,
): Promise<InputError | null> {
  const scoreConfigNames = humanScoreConfigs(metrics, scale).map((d) => d.name);
  return annotationQueueConflict(lf.http, { name, scoreConfigNames, settingKey: 'calibrate.queue' }, signal);
}

/** The queue's id when it exists (the report reads without creating anything). */
export async function findQueue(lf: CalibrationLangfuse, name: string, signal?: AbortSignal): Promise<string | null> {
  return (await listAnnotationQueues(lf.http, signal)).find((q) => q.name === name)?.id ?? null;
}

/** Traces in the queue, pending or completed. */
export async function queuedTraces(
  lf: CalibrationLangfuse,
  queueId: string,
  signal?: AbortSignal,
): Promise<Set<string>> {
  const items = await listQueueItems(lf.http, queueId, signal ? { signal } : {});
  return new Set(items.filter((i) => i.objectType === 'TRACE').map((i) => i.objectId));
}

export async function enqueueTrace(
  lf: CalibrationLangfuse,
  queueId: string,
  traceId: string,
  signal?: AbortSignal,
): Promise<void> {
  await addQueueItem(lf.http, queueId, { objectId: traceId, objectType: 'TRACE' }, signal);
}
