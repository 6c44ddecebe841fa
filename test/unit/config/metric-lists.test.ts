import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../helpers/config.js';

function problemsOf(yaml: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-metric-lists-'));
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, yaml);
  const loaded = loadConfig({ file, env: {} });
  return loaded.ok ? [] : loaded.problems;
}

describe('metric lists in the configuration', () => {
  it('the online job takes the metrics that need no reference answer', () => {
    expect(problemsOf('metrics:\n  online: [faithfulness, answer_relevancy]\n')).toEqual([]);
  });

  it('a metric that needs a reference answer in metrics.online is exit 2, naming the key and where it runs', () => {
    const problems = problemsOf('metrics:\n  online: [faithfulness, context_recall, noise_sensitivity]\n');
    expect(problems).toEqual([
      'config: metrics.online.1: context_recall needs a reference answer, which production traces do not carry; ' +
        'it runs in experiment.metrics and ragwatch evaluate (got "context_recall")',
      'config: metrics.online.2: noise_sensitivity needs a reference answer, which production traces do not carry; ' +
        'it runs in experiment.metrics and ragwatch evaluate (got "noise_sensitivity")',
    ]);
  });

  it('the experiment takes every metric; an unknown name lists the known ones', () => {
    const all = 'faithfulness, answer_relevancy, context_precision, context_recall, noise_sensitivity';
    expect(problemsOf(`experiment:\n  metrics: [${all}]\n`)).toEqual([]);
    expect(problemsOf('experiment:\n  metrics: [faithfullness]\n')).toEqual([
      `config: experiment.metrics.0: must be one of ${all} (got "faithfullness")`,
    ]);
  });
});

describe('metric thresholds in the configuration', () => {
  function thresholdsOf(yaml: string) {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-thresholds-'));
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(file, yaml);
    const loaded = loadConfig({ file, env: {} });
    return loaded.ok ? loaded.config.metrics.thresholds : loaded.problems;
  }

  it('every registered metric may have one; the metric files give the four defaults', () => {
    expect(thresholdsOf('metrics:\n  thresholds:\n    noise_sensitivity: 0.3\n    faithfulness: 0.9\n')).toEqual({
      faithfulness: 0.9,
      answer_relevancy: 0.8,
      context_precision: 0.75,
      context_recall: 0.8,
      noise_sensitivity: 0.3,
    });
  });

  it('an unknown metric or a value off 0–1 is named by its key', () => {
    const problems = thresholdsOf('metrics:\n  thresholds:\n    noise_sensitivity: 1.5\n    faithfulnes: 0.9\n');
    expect(problems).toEqual([
      expect.stringMatching(/^config: metrics\.thresholds\.noise_sensitivity: must be between 0 and 1/),
      expect.stringMatching(/^config: metrics\.thresholds.*faithfulnes/),
    ]);
  });
});
