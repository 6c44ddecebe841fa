/**
 * People's scores: their names (`human-faithfulness`, apart from the judge's `ragas-faithfulness`), the score
 * configs of the annotation queue that mirror ragwatch's metrics, and reading a person's answer back as a number
 * on the 0–1 scale. Pure: the Langfuse calls live in `langfuse-edges.ts`.
 */
import { HUMAN_SCORE_PREFIX } from '../config/index.js';
import { getMetric, type MetricName } from '../metrics/index.js';
import { LEVEL_VALUE, LEVELS } from './levels.js';

export { HUMAN_SCORE_PREFIX };

/** A free comment people may leave on the trace as a whole, beside each score's own comment. */
export const HUMAN_COMMENT_SCORE = 'human-comment';

/** `human-faithfulness`, `human-answer-relevancy`. */
export function humanScoreName(metric: string): string {
  return `${HUMAN_SCORE_PREFIX}${metric.replaceAll('_', '-')}`;
}

/** The metric a human score name is of, among `metrics`; null for any other name. */
export function metricOfHumanScore(name: string, metrics: readonly string[]): string | null {
  return metrics.find((m) => humanScoreName(m) === name) ?? null;
}

export type HumanScale = 'levels' | 'numeric';

export interface HumanScoreConfigDef {
  name: string;
  description: string;
  dataType: 'CATEGORICAL' | 'NUMERIC' | 'TEXT';
  min?: number;
  max?: number;
  categories?: Array<{ value: number; label: string }>;
}

const LEVEL_CATEGORIES = LEVELS.map((label) => ({ value: LEVEL_VALUE[label], label }));

/** One config per calibrated metric on the configured scale, and the free comment. */
export function humanScoreConfigs(metrics: readonly MetricName[], scale: HumanScale): HumanScoreConfigDef[] {
  const perMetric = metrics.map((metric): HumanScoreConfigDef => {
    const what = getMetric(metric).label;
    const name = humanScoreName(metric);
    if (scale === 'numeric') {
      const description = `A person's ${what}, 0 to 1, as ragwatch's judge scores it. Compared with the judge's score.`;
      return { name, description, dataType: 'NUMERIC', min: 0, max: 1 };
    }
    const description =
      `A person's ${what}: unsupported (0), partly (0.5) or supported (1). ` +
      "Compared with the judge's score; say why in the comment.";
    return { name, description, dataType: 'CATEGORICAL', categories: LEVEL_CATEGORIES };
  });
  const comment: HumanScoreConfigDef = {
    name: HUMAN_COMMENT_SCORE,
    description: 'Anything about the trace worth telling whoever tunes the judge (anonymized before it is shown).',
    dataType: 'TEXT',
  };
  return [...perMetric, comment];
}

/**
 * A person's answer on the 0–1 scale: a number as it is, a level by its label (whatever the category's number),
 * null when it is neither (another config's label, a value off the scale).
 */
export function humanValue(score: {
  value: number | null;
  stringValue: string | null;
  dataType: string;
}): number | null {
  if (score.dataType === 'CATEGORICAL' || (score.value === null && score.stringValue !== null)) {
    const label = (score.stringValue ?? '').trim().toLowerCase();
    const level = LEVELS.find((l) => l === label);
    return level ? LEVEL_VALUE[level] : null;
  }
  const v = score.value;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? v : null;
}
