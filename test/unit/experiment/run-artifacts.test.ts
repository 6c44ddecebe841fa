import { describe, expect, it } from 'vitest';
import { goldenGaugeValues, goldenScoreKey, parseGoldenScoreKey } from '../../../src/experiment/gauges.js';
import { configHash, promptVersions, reportLink } from '../../../src/experiment/metadata.js';
import { buildReport, type ItemOutcome } from '../../../src/experiment/report/index.js';
import { runScoresFor } from '../../../src/experiment/run-level.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import { configSchema } from '../../helpers/config.js';

const scored = (metric: MetricResult['metric'], value: number): MetricResult => ({
  metric,
  status: 'scored',
  value,
  reason: 'r',
  details: {},
  usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
  promptVersion: 'v',
});
const outcome = (id: string, split: string, f: number, r: number): ItemOutcome => ({
  itemId: id,
  split,
  stratum: 'single-hop',
  adversarial: false,
  results: [
    scored('faithfulness', f),
    scored('answer_relevancy', 0.9),
    scored('context_precision', 0.9),
    scored('context_recall', r),
  ],
});

function report(outcomes: ItemOutcome[], gate = { minItems: 1, minAbstentionItems: 1 }) {
  const config = configSchema.parse({});
  return buildReport({
    runName: 'weekly-2026-W48',
    datasetName: 'rag-golden',
    startedAt: '2026-11-23T03:00:00.000Z',
    finishedAt: '2026-11-23T03:10:00.000Z',
    split: 'all',
    run: {
      ragwatchVersion: '0',
      judgeModel: 'j',
      embeddingsModel: 'e',
      promptVersions: {},
      configHash: 'h',
      seed: 1,
      target: 't',
      definitionVersions: {},
    },
    metrics: config.experiment.metrics,
    thresholds: config.metrics.thresholds,
    outcomes: [
      ...outcomes,
      { itemId: 'adv', split: 'test', stratum: 'adversarial', adversarial: true, results: [], abstained: true },
    ],
    previous: null,
    history: [],
    bootstrap: { samples: 200, seed: 1 },
    gate: { ...config.experiment.gate, ...gate },
  });
}

describe('run artifacts', () => {
  it('run-level scores: each metric’s mean, the abstention rate and the gate verdict', () => {
    const r = report([outcome('a', 'dev', 1, 1), outcome('b', 'test', 0.5, 0.9)]);
    const scores = new Map(runScoresFor(r, 'ragas-', 'rag-abstention').map((s) => [s.name, s.value]));
    expect(scores.get('ragas-faithfulness')).toBeCloseTo(0.75);
    expect(scores.get('rag-abstention')).toBe(1);
    expect(scores.get('rag-gate')).toBe(0);
    expect(scores.has('rag-noise-delta-faithfulness')).toBe(false);
  });

  it('a gate without enough evidence writes no rag-gate score (never a 0 that reads as a fail) and says so in a gauge', () => {
    const r = report([outcome('a', 'dev', 1, 1), outcome('b', 'test', 1, 0.9)], {
      minItems: 30,
      minAbstentionItems: 1,
    });
    expect(r.gate!.outcome).toBe('not_enough_evidence');
    expect(runScoresFor(r, 'ragas-', 'rag-abstention').map((s) => s.name)).not.toContain('rag-gate');
    const values = goldenGaugeValues(r);
    expect(values.rag_golden_gate_passed).toBe(0);
    expect(values.rag_golden_gate_inconclusive).toBe(1);
    expect(goldenGaugeValues(report([outcome('a', 'dev', 1, 1), outcome('b', 'test', 1, 0.9)]))).toMatchObject({
      rag_golden_gate_passed: 1,
      rag_golden_gate_inconclusive: 0,
    });
  });

  it('gauges per metric and split, with the verdict, under keys that parse back', () => {
    const values = goldenGaugeValues(report([outcome('a', 'dev', 1, 1), outcome('b', 'test', 1, 0.9)]));
    expect(values[goldenScoreKey('faithfulness', 'all')]).toBe(1);
    expect(values[goldenScoreKey('context_recall', 'test')]).toBeCloseTo(0.9);
    expect(values.rag_golden_gate_passed).toBe(1);
    expect(values.rag_golden_last_run_timestamp_seconds).toBe(Date.parse('2026-11-23T03:10:00Z') / 1000);
    expect(parseGoldenScoreKey(goldenScoreKey('answer_relevancy', 'dev'))).toEqual({
      metric: 'answer_relevancy',
      split: 'dev',
    });
    expect(parseGoldenScoreKey('rag_faithfulness_score')).toBeNull();
  });

  it('the config hash ignores secrets and endpoints but follows what shapes the numbers', () => {
    const a = configSchema.parse({});
    const moved = configSchema.parse({
      judge: { baseUrl: 'http://judge.internal:8000/v1', apiKey: 'sk-secret' },
      experiment: { target: { url: 'http://rag.internal/ask' } },
    });
    const stricter = configSchema.parse({ metrics: { thresholds: { faithfulness: 0.9 } } });
    expect(configHash(moved)).toBe(configHash(a));
    expect(configHash(stricter)).not.toBe(configHash(a));
    expect(configHash(a)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('prompt versions per task and language, and the report link', () => {
    const versions = promptVersions(['faithfulness', 'context_recall'], true, false);
    expect(Object.keys(versions)).toEqual([
      'context_recall.en',
      'context_recall.es',
      'faithfulness.en',
      'faithfulness.es',
      'abstention.en',
      'abstention.es',
    ]);
    const config = configSchema.parse({});
    expect(reportLink(config, 'weekly-2026-W48')).toBe('http://localhost:9464/reports/weekly-2026-W48/report.html');
    expect(reportLink(configSchema.parse({ experiment: { publicUrl: 'https://ragwatch.example.com/' } }), 'r')).toBe(
      'https://ragwatch.example.com/reports/r/report.html',
    );
  });

  it('prompt versions of noise sensitivity: every prompt its version combines (faithfulness, context recall, claims in reference)', () => {
    const versions = promptVersions(['noise_sensitivity'], false, false);
    expect(Object.keys(versions)).toEqual([
      'claims_in_reference.en',
      'claims_in_reference.es',
      'context_recall.en',
      'context_recall.es',
      'faithfulness.en',
      'faithfulness.es',
    ]);
  });
});
