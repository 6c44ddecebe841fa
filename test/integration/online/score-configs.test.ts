import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../helpers/run-cli.js';
import { seed, startStack, type Personality, type Stack } from './harness.js';

const MIN = 60_000;
const stacks: Stack[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writeConfig(stack: Stack, extra: Record<string, Record<string, unknown>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-configs-'));
  dirs.push(dir);
  const config: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model },
    embeddings: { model: stack.judge.embeddingModel },
    sampling: { rate: 0.5 },
    state: { path: join(dir, 'state.db') },
    http: { port: 0, host: '127.0.0.1' },
    log: { level: 'silent' },
  };
  for (const [section, values] of Object.entries(extra)) config[section] = { ...(config[section] ?? {}), ...values };
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

describe.each<Personality>(['v3', 'v4'])('score configs checked whole before any write (%s)', (personality) => {
  it('a NUMERIC config of our name with another range refuses to start, naming it and the way out; no score is lost', async () => {
    const stack = await startStack(personality);
    stacks.push(stack);
    await seed(stack, personality, 60, new Date(Date.now() - 11 * MIN), 3, 20);
    // A team's own 1–5 scale under ragwatch's default name: Langfuse would drop every value below 1.
    stack.lf.store.createScoreConfig({
      name: 'ragas-faithfulness',
      dataType: 'NUMERIC',
      minValue: 1,
      maxValue: 5,
      categories: null,
      description: "our reviewers' 1-5 scale",
    });
    const file = writeConfig(stack);

    for (const args of [['sample', '--once', '--no-progress'], ['run']]) {
      const result = await runCli(['--config', file, ...args]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      const lines = result.stderr.trim().split('\n');
      const line = lines.find((l) => l.includes('ragas-faithfulness'));
      expect(line, result.stderr).toBeDefined();
      expect(line).toMatch(/metrics\.scorePrefix/);
      expect(line).toMatch(/1 to 5/);
      expect(line).toMatch(/0 to 1/);
    }
    expect(stack.lf.store.scores()).toHaveLength(0);
    expect(stack.lf.store.droppedScores()).toHaveLength(0);

    // The way out: ragwatch's scores under names of their own, every one of them kept.
    const renamed = writeConfig(stack, { metrics: { scorePrefix: 'rw-' } });
    const ok = await runCli(['--config', renamed, 'sample', '--once', '--no-progress']);
    expect(ok.code, ok.stderr).toBe(0);
    const written = stack.lf.store.scores();
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written.map((s) => s.name))).toEqual(
      new Set(['rw-faithfulness', 'rw-answer-relevancy', 'ragwatch-answer-leak']),
    );
    expect(stack.lf.store.droppedScores()).toHaveLength(0);
  }, 120_000);

  it('a config of our name with another data type refuses to start too', async () => {
    const stack = await startStack(personality);
    stacks.push(stack);
    stack.lf.store.createScoreConfig({
      name: 'ragas-answer-relevancy',
      dataType: 'CATEGORICAL',
      minValue: null,
      maxValue: null,
      categories: [
        { value: 0, label: 'off-topic' },
        { value: 1, label: 'on-topic' },
      ],
      description: null,
    });
    const result = await runCli(['--config', writeConfig(stack), 'sample', '--once', '--no-progress']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/"ragas-answer-relevancy".*CATEGORICAL.*NUMERIC.*metrics\.scorePrefix/);
    expect(stack.lf.store.scores()).toHaveLength(0);
  }, 60_000);
});
