import { describe, expect, it } from 'vitest';
import { diagnose, releaseGate } from '../../../src/metrics/index.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const thresholds = defaultMetricsOptions().thresholds;

describe('release gate', () => {
  it('uses the configured defaults (0.85 / 0.80 / 0.75 / 0.80)', () => {
    expect(thresholds).toEqual({
      faithfulness: 0.85,
      answer_relevancy: 0.8,
      context_precision: 0.75,
      context_recall: 0.8,
    });
  });

  it('passes when every metric reaches its threshold', () => {
    const r = releaseGate(
      { faithfulness: 0.85, answer_relevancy: 0.9, context_precision: 0.75, context_recall: 0.81 },
      thresholds,
    );
    expect(r).toMatchObject({ passed: true, failures: [], missing: [] });
  });

  it('lists each failing metric, and blocks on missing values without inventing a 0', () => {
    const r = releaseGate({ faithfulness: 0.712, answer_relevancy: 0.9, context_precision: 0.6 }, thresholds);
    expect(r.passed).toBe(false);
    expect(r.failures).toEqual([
      { metric: 'faithfulness', value: 0.712, threshold: 0.85 },
      { metric: 'context_precision', value: 0.6, threshold: 0.75 },
    ]);
    expect(r.missing).toEqual(['context_recall']);
    expect(r.lines).toEqual([
      'faithfulness: 0.712 < 0.85',
      'context_precision: 0.600 < 0.75',
      'context_recall: no value (threshold 0.8)',
    ]);
  });

  it('gates a lower-is-better metric from above: at or below its threshold passes', () => {
    const gated = { faithfulness: 0.85, noise_sensitivity: 0.3 };
    expect(releaseGate({ faithfulness: 0.9, noise_sensitivity: 0.3 }, gated)).toMatchObject({
      passed: true,
      failures: [],
    });
    const r = releaseGate({ faithfulness: 0.9, noise_sensitivity: 0.4 }, gated);
    expect(r.failures).toEqual([{ metric: 'noise_sensitivity', value: 0.4, threshold: 0.3 }]);
    expect(r.lines).toEqual(['noise_sensitivity: 0.400 > 0.3']);
    expect(releaseGate({ faithfulness: 0.9 }, { faithfulness: 0.85, noise_sensitivity: undefined }).passed).toBe(true);
  });
});

describe('2×2 diagnosis', () => {
  it('maps faithfulness × recall to the four quadrants with their actions', () => {
    expect(diagnose({ faithfulness: 0.9, context_recall: 0.9 })).toEqual({
      status: 'healthy',
      action: 'monitor',
      priority: 'none',
    });
    expect(diagnose({ faithfulness: 0.9, context_recall: 0.5 })).toMatchObject({
      status: 'retrieval_gap',
      priority: 'high',
    });
    expect(diagnose({ faithfulness: 0.75, context_recall: 1 })).toMatchObject({
      status: 'hallucination',
      priority: 'critical',
    });
    expect(diagnose({ faithfulness: 0.5, context_recall: 0.5 })).toMatchObject({
      status: 'compound_failure',
      action: 'fix retrieval first, then generation',
    });
    // The seeds' Redis example: faithfulness 0.75, recall 1.00 → hallucination.
    expect(diagnose({ faithfulness: 0.75, context_recall: 1 }, thresholds).status).toBe('hallucination');
  });
});
