/** Every metric ragwatch can score, by name. Adding a metric = one file + one line here. */
import { metricNames, type MetricName } from '../config/schema.js';
import { answerRelevancy } from './answer-relevancy.js';
import { contextPrecision } from './context-precision.js';
import { contextRecall } from './context-recall.js';
import type { MetricDefinition } from './definition.js';
import { faithfulness } from './faithfulness.js';
import { noiseSensitivityMetric } from './noise-sensitivity.js';

const registry: Record<MetricName, MetricDefinition> = {
  faithfulness,
  answer_relevancy: answerRelevancy,
  context_precision: contextPrecision,
  context_recall: contextRecall,
  noise_sensitivity: noiseSensitivityMetric,
};

export function getMetric(name: MetricName): MetricDefinition {
  return registry[name];
}

export function isMetricName(name: string): name is MetricName {
  return (metricNames as readonly string[]).includes(name);
}

/** Names in the canonical order: the order scoreSample runs them in (prefix-cache friendly). */
export function allMetricNames(): MetricName[] {
  return [...metricNames];
}

/** Parses a comma-separated list such as `faithfulness,answer_relevancy`; unknown names are returned apart. */
export function parseMetricList(text: string): { metrics: MetricName[]; unknown: string[] } {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const metrics: MetricName[] = [];
  const unknown: string[] = [];
  for (const n of names) {
    if (isMetricName(n)) {
      if (!metrics.includes(n)) metrics.push(n);
    } else unknown.push(n);
  }
  return { metrics, unknown };
}
