/**
 * Every metric ragwatch can score. Adding a metric is its file (a MetricDefinition) and one line in
 * `definitions`: config validation, score configs, gauges, reports, run metadata and docs/judge-protocol.md
 * read the metric from here (the configuration through the facts `allMetrics()` hands it where it is loaded). It
 * and the metric files import nothing outside `metrics/` and `judge/types.ts` at run time (a test keeps it so).
 */
import { answerRelevancy } from './answer-relevancy.js';
import { contextPrecision } from './context-precision.js';
import { contextRecall } from './context-recall.js';
import type { MetricDefinition } from './definition.js';
import { faithfulness } from './faithfulness.js';
import { noiseSensitivityMetric } from './noise-sensitivity.js';

/**
 * The canonical order: the order a sample's metrics are scored in (each judge request finds the previous one's
 * prefix in vLLM's cache; a call two metrics share is charged to the first) and the order reports list them in.
 */
// One metric per line: adding a metric adds one line here (prettier would fold the list onto one line).
// prettier-ignore
const definitions = [
  faithfulness,
  answerRelevancy,
  contextPrecision,
  contextRecall,
  noiseSensitivityMetric,
] as const;

/**
 * A metric's name. Names are data: the registry says which exist, and names read from input (the configuration,
 * `--metrics`) are checked against it where they are read.
 */
export type MetricName = string;

/** Gauge and golden-score keys take the name as it is, so it is letters between single underscores. */
const NAME_PATTERN = /^[a-z]+(_[a-z]+)*$/;

/** The definitions by name; throws on a name two share, one gauges cannot take, or a reference metric online. */
export function indexByName(list: readonly MetricDefinition[]): ReadonlyMap<string, MetricDefinition> {
  const byName = new Map<string, MetricDefinition>();
  for (const d of list) {
    if (!NAME_PATTERN.test(d.name))
      throw new Error(`metric name "${d.name}" must be lower-case letters between single underscores`);
    if (byName.has(d.name)) throw new Error(`metric "${d.name}" is registered twice`);
    if (d.needsReference && d.jobs.includes('online'))
      throw new Error(`metric "${d.name}" needs a reference answer: not online`);
    byName.set(d.name, d);
  }
  return byName;
}

const byName = indexByName(definitions);

/** The definition of a registered metric; an unknown name is a programming error (names are checked on input). */
export function getMetric(name: MetricName): MetricDefinition {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`unknown metric "${name}"`);
  return found;
}

export function isMetricName(name: string): name is MetricName {
  return byName.has(name);
}

/** The definitions in the canonical order: what the configuration is checked against (config's MetricCatalog). */
export function allMetrics(): readonly MetricDefinition[] {
  return definitions;
}

/** Names in the canonical order. */
export function allMetricNames(): MetricName[] {
  return definitions.map((d) => d.name);
}

/** Gauge of the online job's mean per metric, as the alert rules know it: `rag_faithfulness_score`. */
export function scoreGaugeName(metric: MetricName): string {
  return `rag_${metric}_score`;
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
