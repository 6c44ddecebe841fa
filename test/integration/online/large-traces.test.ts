import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { plantLargeTraces } from '../../helpers/large-traces.js';
import { peakRssMb, reportPeakRss } from '../../helpers/peak-rss.js';
import { runCli } from '../../helpers/run-cli.js';
import { startStack, type Stack } from './harness.js';

const stacks: Stack[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The bound: the kustomize base gives the pod 512 MiB. */
const PEAK_RSS_LIMIT_MB = 400;

describe('sample --once on eight traces with a 5 MB answer each', () => {
  it('stays under 400 MB peak RSS at the default concurrency, scores every trace and flags the cut on the scores', async () => {
    const stack = await startStack('v3');
    stacks.push(stack);
    const ids = plantLargeTraces(stack.lf, 8, Date.now() - 11 * 60_000, 5_000_000);
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-large-'));
    dirs.push(dir);
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: stack.judge.url, model: stack.judge.model },
        embeddings: { model: stack.judge.embeddingModel },
        sampling: { rate: 1 },
        state: { path: join(dir, 'state.db') },
        log: { level: 'info' },
      }),
    );

    const run = await runCli(['sample', '--once', '--config', file], { env: reportPeakRss, timeoutMs: 120_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const peak = peakRssMb(run.stderr);
    console.log(`sample --once, 8 traces × 5 MB answer, default concurrency: peak RSS ${peak.toFixed(0)} MB`);
    expect(peak).toBeLessThan(PEAK_RSS_LIMIT_MB);

    for (const id of ids) {
      const scores = stack.lf.store.scores({ traceId: id });
      expect(scores.map((s) => s.name).sort(), id).toEqual([
        'ragas-answer-relevancy',
        'ragas-faithfulness',
        'ragwatch-answer-leak',
      ]);
      // The answer-leak check read the trace as cut too, and says so.
      const leak = scores.find((s) => s.name === 'ragwatch-answer-leak')!;
      expect((leak.metadata as { readCut?: { fieldsCut: number } }).readCut?.fieldsCut, id).toBeGreaterThan(0);
      for (const score of scores.filter((s) => s.name.startsWith('ragas-'))) {
        const metadata = score.metadata as {
          readCut?: { fieldsCut: number; maxTraceBytes: number };
          truncated?: unknown;
        };
        expect(metadata.readCut?.fieldsCut, id).toBeGreaterThan(0);
        expect(metadata.readCut?.maxTraceBytes).toBe(1024 * 1024);
        expect(metadata.truncated).toMatchObject({ answer: {} });
        expect(score.comment ?? '').toMatch(/^\[trace over ragwatch's read budget: \d+ texts? cut/);
      }
    }
  }, 150_000);
});
