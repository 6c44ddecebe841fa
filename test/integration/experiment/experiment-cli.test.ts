import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startHarness, type Harness } from './harness.js';

const ITEMS = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 8),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 4),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 2),
];

/** Thresholds this 14-item subset passes with the stand-in judge when the RAG is healthy. */
const LOOSE = 'metrics: {thresholds: {answer_relevancy: 0.4, context_precision: 0.6, context_recall: 0.6}}';
let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await startHarness('v3', { items: ITEMS });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function configFile(experiment: string, extra = ''): Promise<string> {
  const file = join(h.dir, `ragwatch-${++n}.yaml`);
  await writeFile(
    file,
    // 14 items: the gate decides on what it has and leaves abstention out (gate-evidence.test.ts covers both).
    `${h.yaml(extra)}\nexperiment:\n  reportsDir: ${join(h.dir, 'cli-reports')}\n  bootstrapSamples: 300\n  gate: {minItems: 1, minAbstention: null}\n${experiment}\n`,
  );
  return file;
}

const target = (url: string, more = '') =>
  `  target: {url: "${url}", response: {answer: answer, contexts: contexts}, maxAttempts: 2${more}}`;
const run = (config: string, ...args: string[]) =>
  runCli(['--config', config, 'experiment', 'run', ...args], { cwd: h.dir, timeoutMs: 120_000 });

describe('ragwatch experiment run', () => {
  it('exits 0 when the gate passes, prints the verdict and where the report is', async () => {
    const result = await run(await configFile(target(h.rag.askUrl), LOOSE), '--run-name', 'cli-pass');
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('run cli-pass on dataset rag-golden (split all): 14 items, 0 failed');
    expect(result.stdout).toContain('gate: PASSED');
    const html = join(h.dir, 'cli-reports', 'cli-pass', 'report.html');
    expect(result.stdout).toContain(html);
    expect(existsSync(html)).toBe(true);
    expect(existsSync(join(h.dir, 'cli-reports', 'cli-pass', 'report.json'))).toBe(true);
  }, 130_000);

  it('exits 1 when the gate fails, naming each failing metric, and prints JSON on --json', async () => {
    h.rag.degraded = true;
    try {
      const result = await run(await configFile(target(h.rag.askUrl), LOOSE), '--run-name', 'cli-fail', '--json');
      expect(result.code).toBe(1);
      const summary = JSON.parse(result.stdout);
      expect(summary.runName).toBe('cli-fail');
      expect(summary.gate.passed).toBe(false);
      expect(summary.outcome).toBe('failed');
      expect(summary.gate.lines.join('\n')).toMatch(
        /faithfulness: 0\.\d+ \[0\.\d+, 0\.\d+\], n = \d+, threshold ≥ 0\.85: failed/,
      );
      expect(summary.previousRun).toBe('cli-pass');
      expect(summary.regressions).toContain('faithfulness');
    } finally {
      h.rag.degraded = false;
    }
  }, 130_000);

  it('exits 2 on bad input: unknown dataset, bad split, a run name already used, target configuration problems', async () => {
    const good = await configFile(target(h.rag.askUrl));
    const unknown = await run(good, '--dataset', 'no-such-dataset');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('dataset "no-such-dataset" does not exist');
    const split = await run(good, '--split', 'train');
    expect(split.code).toBe(2);
    expect(split.stderr).toContain('--split: must be dev, test or all');
    const taken = await run(good, '--run-name', 'cli-pass');
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('already has a run named "cli-pass"');
    const badVar = await run(await configFile(`${target(h.rag.askUrl, ', body: {q: "{{query}}"}')}`));
    expect(badVar.code).toBe(2);
    expect(badVar.stderr).toContain('unknown template variable {{query}}');
    const noUrl = await run(await configFile('  target: {mode: http}'));
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('experiment.target.url: is required');
    expect(h.rag.stats.failed).toBe(0);
  }, 200_000);

  it('exits 3, with no verdict, when the RAG service, the judge or Langfuse stays unreachable', async () => {
    h.rag.failWith = 503;
    try {
      const rag = await run(await configFile(target(h.rag.askUrl)));
      expect(rag.code).toBe(3);
      expect(rag.stderr).toContain('RAG service unreachable after retries');
      expect(rag.stderr).toContain('an outage is not a regression');
      expect(rag.stdout).not.toContain('gate:');
    } finally {
      h.rag.failWith = null;
    }
    const judge = await run(
      await configFile(
        target(h.rag.askUrl),
        `judge: {baseUrl: "http://127.0.0.1:9/v1", model: x, maxAttempts: 1, timeoutMs: 2000}`,
      ),
    );
    expect(judge.code).toBe(3);
    expect(judge.stderr).toContain('judge unreachable after retries');
    h.langfuse.faults.set('POST /api/public/ingestion', { errorRate: 1, errorStatus: 500 });
    try {
      const langfuse = await run(await configFile(target(h.rag.askUrl)));
      expect(langfuse.code).toBe(3);
      expect(langfuse.stderr).toContain('Langfuse');
    } finally {
      h.langfuse.faults.clear();
    }
  }, 300_000);

  it('shows its progress on a terminal: each pass with its items, on stderr only', async () => {
    const noisy = `${target(h.rag.askUrl, ', body: {question: "{{question}}", distractors: "{{distractors}}"}')}\n  noise: {enabled: true, distractors: 2}`;
    const config = await configFile(noisy, LOOSE);
    const result = await runCliInProcess(['--config', config, 'experiment', 'run', '--run-name', 'cli-progress'], {
      cwd: h.dir,
      stderrIsTTY: true,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '\r\x1b[2Kexperiment: clean pass 0/14 items (0 %) · 0 judge calls in flight · 0:00 elapsed',
    );
    // The noise pass runs the 12 items that are not adversarial.
    expect(result.stderr).toContain('\r\x1b[2Kexperiment: noise pass 0/12 items (0 %)');
    expect(result.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(result.stdout).not.toContain('\x1b');
    expect(result.stdout).toContain('gate: PASSED');
  }, 130_000);
});
