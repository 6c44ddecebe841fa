/**
 * The Langfuse score configs of ragwatch's scores: NUMERIC 0–1, so the Langfuse UI shows ranges and meanings.
 * A config of the same name that someone else made must take them whole, else neither job starts.
 * Each metric's description comes from its definition (`src/metrics/`).
 */
import type { RagwatchConfig } from '../config/index.js';
import { getMetric, type MetricName } from '../metrics/index.js';
import { ABSTENTION_SCORE, ANSWER_LEAK_SCORE, scoreNameFor } from './names.js';

export interface ScoreConfigDefinition {
  name: string;
  description: string;
  min: number;
  max: number;
  /** The key that renames the score when a config of its name in Langfuse clashes (see `ensureScoreConfigs`). */
  renameKey?: string;
}

const ABSTENTION_CONFIG: ScoreConfigDefinition = {
  name: ABSTENTION_SCORE,
  description:
    'Adversarial golden-set item: 1 when the RAG said it lacks the information or rejected the false premise, ' +
    'else 0. Scored by ragwatch.',
  min: 0,
  max: 1,
};

const ANSWER_LEAK_CONFIG: ScoreConfigDefinition = {
  name: ANSWER_LEAK_SCORE,
  description:
    'Production trace: 1 when the RAG answer holds personal data (e-mail, phone, IBAN, card, NIF/NIE, IP ' +
    'address, labelled identifier) that neither the question nor the retrieved contexts held, else 0. Counted ' +
    'by ragwatch’s anonymizer, no judge; the metadata gives counts per type, never values.',
  min: 0,
  max: 1,
};

/** One config per metric, named as its scores are. */
export function scoreConfigDefinitions(prefix: string, metrics: readonly MetricName[]): ScoreConfigDefinition[] {
  return metrics.map((metric) => ({
    name: scoreNameFor(prefix, metric),
    description: getMetric(metric).scoreDescription,
    min: 0,
    max: 1,
    renameKey: 'metrics.scorePrefix',
  }));
}

/** The online job's: one per metric of `metrics.online`, and the answer leak's when `online.answerLeak` is on. */
export function onlineScoreConfigs(
  config: Pick<RagwatchConfig, 'metrics'> & { online?: { answerLeak?: boolean } },
): ScoreConfigDefinition[] {
  const metrics = scoreConfigDefinitions(config.metrics.scorePrefix, config.metrics.online);
  return config.online?.answerLeak === true ? [...metrics, ANSWER_LEAK_CONFIG] : metrics;
}

/** The weekly experiment's: one per metric of `experiment.metrics`, and abstention. */
export function experimentScoreConfigs(
  config: Pick<RagwatchConfig, 'metrics' | 'experiment'>,
): ScoreConfigDefinition[] {
  return [...scoreConfigDefinitions(config.metrics.scorePrefix, config.experiment.metrics), ABSTENTION_CONFIG];
}
