import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../../../src/service/metrics.js';

const NEVER_SET = [
  'rag_faithfulness_score',
  'rag_answer_relevancy_score',
  'rag_golden_gate_passed',
  'rag_golden_last_run_timestamp_seconds',
];

/** Every line (HELP, TYPE, samples) that names the metric. */
function linesOf(text: string, name: string): string[] {
  return text.split('\n').filter((line) => new RegExp(`^(# (HELP|TYPE) )?${name}[ {]`).test(line));
}

const fresh = () => createServiceMetrics({ scoreMetrics: ['faithfulness', 'answer_relevancy'], processMetrics: false });

describe('gauges nothing has set yet', () => {
  it('are absent from a fresh registry: no fake score of 0, no failed gate', async () => {
    const m = fresh();
    m.tracesListed(5);
    m.ledgerCounts({ pending: 0, done: 0, skipped: 0, failed: 0, dead: 0 });
    m.tickFinished('online', 'success', true, 1_700_000_000_000);
    const text = await m.render();
    for (const name of NEVER_SET) expect(linesOf(text, name), name).toEqual([]);
    expect(text).toMatch(/^ragwatch_traces_listed_total 5$/m);
    expect(m.registry.getSingleMetric('rag_faithfulness_score')).toBeUndefined();
  });

  it('appear with their value once a tick scored something or an experiment finished', async () => {
    const m = fresh();
    m.scoreMeans({ faithfulness: 0.83 });
    m.goldenResults({
      rag_golden_gate_passed: 0,
      rag_golden_last_run_timestamp_seconds: 1_700_000_123,
      'rag_golden_score{metric="faithfulness",split="test"}': 0.9,
    });
    const text = await m.render();
    expect(linesOf(text, 'rag_faithfulness_score')).toEqual([
      expect.stringMatching(/^# HELP rag_faithfulness_score /),
      '# TYPE rag_faithfulness_score gauge',
      'rag_faithfulness_score 0.83',
    ]);
    // A real failed gate is exported as 0; only the never-set gauge is hidden.
    expect(text).toMatch(/^rag_golden_gate_passed 0$/m);
    expect(text).toMatch(/^rag_golden_last_run_timestamp_seconds 1700000123$/m);
    // A metric no tick has scored yet stays absent.
    expect(linesOf(text, 'rag_answer_relevancy_score')).toEqual([]);
  });

  it('appear when restored from state at start-up, and a second set neither duplicates nor fails', async () => {
    const m = fresh();
    m.restoreGauges({
      rag_answer_relevancy_score: 0.64,
      rag_golden_gate_passed: 1,
      rag_golden_last_run_timestamp_seconds: 1_700_000_000,
    });
    m.scoreMeans({ answer_relevancy: 0.71 });
    m.restoreGauges({ rag_golden_gate_passed: 0 });
    const text = await m.render();
    expect(text.match(/^# TYPE rag_answer_relevancy_score gauge$/gm)).toHaveLength(1);
    expect(text).toMatch(/^rag_answer_relevancy_score 0\.71$/m);
    expect(text).toMatch(/^rag_golden_gate_passed 0$/m);
    expect(text).toMatch(/^rag_golden_last_run_timestamp_seconds 1700000000$/m);
    expect(linesOf(text, 'rag_faithfulness_score')).toEqual([]);
  });

  it('are per service instance: one registry having set a gauge does not show it in another', async () => {
    const first = fresh();
    first.scoreMeans({ faithfulness: 0.5 });
    const second = fresh();
    expect(linesOf(await second.render(), 'rag_faithfulness_score')).toEqual([]);
    expect(await first.render()).toMatch(/^rag_faithfulness_score 0\.5$/m);
  });
});
