import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/metrics/index.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const thresholds = defaultMetricsOptions().thresholds;

describe('gate thresholds', () => {
  it('uses the configured defaults (0.85 / 0.80 / 0.75 / 0.80)', () => {
    expect(thresholds).toEqual({
      faithfulness: 0.85,
      answer_relevancy: 0.8,
      context_precision: 0.75,
      context_recall: 0.8,
    });
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
