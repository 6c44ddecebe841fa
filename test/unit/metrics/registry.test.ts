import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricColor } from '../../../src/experiment/report/svg.js';
import { scoreConfigDefinitions } from '../../../src/scores/index.js';
import { faithfulness } from '../../../src/metrics/faithfulness.js';
import {
  allMetricNames,
  getMetric,
  indexByName,
  isMetricName,
  parseMetricList,
  scoreGaugeName,
} from '../../../src/metrics/registry.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

/** A table keyed by every metric name: adding a metric would mean editing it. */
const PER_METRIC_TABLE = /(?<!Partial<)Record<MetricName,/;

describe('the metric registry', () => {
  it('lists the metrics in scoring order and looks each up by name', () => {
    const names = ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall', 'noise_sensitivity'];
    expect(allMetricNames()).toEqual(names);
    for (const name of allMetricNames()) expect(getMetric(name).name).toBe(name);
    expect(isMetricName('faithfulness')).toBe(true);
    expect(isMetricName('Faithfulness')).toBe(false);
    expect(() => getMetric('bogus' as never)).toThrow('unknown metric "bogus"');
    expect(parseMetricList(' faithfulness,,bogus ,faithfulness,noise_sensitivity')).toEqual({
      metrics: ['faithfulness', 'noise_sensitivity'],
      unknown: ['bogus'],
    });
  });

  it('refuses two metrics with one name, a name gauges cannot take, and a metric online that needs a reference', () => {
    expect(() => indexByName([faithfulness, faithfulness])).toThrow('metric "faithfulness" is registered twice');
    for (const name of ['Faithfulness', 'claims2', 'a__b', '_a', 'a-b', '']) {
      const renamed = { ...faithfulness, name };
      expect(() => indexByName([renamed]), name).toThrow('lower-case letters between single underscores');
    }
    const online = { ...faithfulness, needsReference: true };
    expect(() => indexByName([online])).toThrow('needs a reference answer: not online');
    expect(indexByName([faithfulness, { ...faithfulness, name: 'claim_count' }]).size).toBe(2);
  });

  it('names gauges as the alert rules know them, and keeps each of today’s metrics in its report colour', () => {
    expect(allMetricNames().map(scoreGaugeName)).toEqual([
      'rag_faithfulness_score',
      'rag_answer_relevancy_score',
      'rag_context_precision_score',
      'rag_context_recall_score',
      'rag_noise_sensitivity_score',
    ]);
    expect(allMetricNames().map(metricColor)).toEqual(['#2563eb', '#059669', '#d97706', '#7c3aed', '#dc2626']);
  });

  it('score config descriptions name their metric and say when lower is better', () => {
    for (const def of scoreConfigDefinitions('ragas-', allMetricNames())) {
      const metric = getMetric(def.name.replace('ragas-', '').replaceAll('-', '_') as never);
      expect(def.description.toLowerCase(), def.name).toContain(metric.label.toLowerCase());
      expect(def.description.includes('lower is better'), def.name).toBe(!metric.higherIsBetter);
      expect(def).toMatchObject({ min: 0, max: 1 });
    }
  });

  it('no module but the registry keeps a table of every metric (a Partial<Record<MetricName, …>> of values is fine)', () => {
    expect(PER_METRIC_TABLE.test('const HELP: Record<MetricName, string> = {')).toBe(true);
    expect(PER_METRIC_TABLE.test('means: Partial<Record<MetricName, number>>')).toBe(false);
    const src = join(REPO_ROOT, 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => PER_METRIC_TABLE.test(readFileSync(join(src, f), 'utf8')))).toEqual([]);
  });
});
