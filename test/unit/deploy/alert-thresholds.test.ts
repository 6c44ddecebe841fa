import { describe, expect, it } from 'vitest';
import type { MetricName } from '../../../src/metrics/types.js';
import { ALERTS_FILE, readYaml, type RuleFile } from './support/paths.js';
import { configSchema } from '../../helpers/config.js';

/** A quality alert's bar either is the weekly gate's threshold for that metric or says why it is not. */
const gate = configSchema.parse({}).metrics.thresholds as Partial<Record<MetricName, number>>;
const qualityAlerts = readYaml<RuleFile>(ALERTS_FILE)
  .groups.flatMap((g) => g.rules)
  .flatMap((rule) => {
    const m = /rag_([a-z_]+)_score\[[^\]]+\]\)+\s*<\s*([0-9.]+)/.exec(rule.expr);
    return m
      ? [
          {
            alert: rule.alert ?? '',
            metric: m[1] as MetricName,
            bar: Number(m[2]),
            description: rule.annotations?.description ?? '',
          },
        ]
      : [];
  });

describe('quality alert thresholds', () => {
  it('finds the online score alerts', () => {
    expect(qualityAlerts.map((a) => a.metric).sort()).toEqual(['answer_relevancy', 'faithfulness']);
  });

  it.each(qualityAlerts)(
    '$alert follows the gate threshold of $metric or explains the difference',
    ({ metric, bar, description }) => {
      const threshold = gate[metric];
      expect(threshold, `metrics.thresholds.${metric}`).toBeDefined();
      if (bar === threshold) return;
      expect(description).toMatch(/\bgate\b/);
      expect(description).toContain(String(threshold));
      expect(description).toContain(bar.toFixed(2));
    },
  );
});
