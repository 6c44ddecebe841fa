import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';

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
