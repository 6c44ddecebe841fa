/**
 * bench/large-traces: peak memory of `ragwatch sample --once` when traces are large.
 *
 *   npx tsx bench/large-traces.ts [--traces 8] [--mb 5]
 *
 * Plants `--traces` RAG traces whose answer is `--mb` MB (trace output, root span output and the generation's
 * output: each trace's response carries it three times) in a Langfuse stand-in, v3 and v4, and runs the real CLI
 * (`sample --once`, sampling rate 1, default concurrency) in a child process against it. Prints the child's peak
 * RSS (getrusage, as the kernel counts it) and wall time for the default read budget (langfuse.maxTraceBytes 1 MiB,
 * maxFieldBytes 128 KiB) and, side by side in the same run, for the largest budget the schema allows (256 MiB /
 * 64 MiB: in effect the whole trace), plus an empty tick as the process's floor. The bound: peak under
 * 400 MB with eight 5 MB traces (the kustomize base limits the pod to 512 MiB).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startJudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
// The test suite's builder of large traces: the bench measures the same traces the test bounds.
import { plantLargeTraces } from '../test/helpers/large-traces.js';
import { peakRssMb, reportPeakRss } from '../test/helpers/peak-rss.js';
import { runCli } from '../test/helpers/run-cli.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const traces = arg('traces', 8);
const mb = arg('mb', 5);

async function measure(
  personality: 'v3' | 'v4',
  count: number,
  langfuse: Record<string, number>,
): Promise<{ peak: number; seconds: number; scores: number }> {
  const lf = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  const judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-bench-large-'));
  try {
    plantLargeTraces(lf, count, Date.now() - 11 * 60_000, mb * 1_000_000);
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: {
          baseUrl: lf.url,
          publicKey: lf.publicKey,
          secretKey: lf.secretKey,
          apiGeneration: personality,
          ...langfuse,
        },
        judge: { baseUrl: judge.url, model: judge.model },
        embeddings: { model: judge.embeddingModel },
        sampling: { rate: 1 },
        state: { path: join(dir, 'state.db') },
        log: { level: 'warn' },
      }),
    );
    const started = Date.now();
    const run = await runCli(['sample', '--once', '--config', file], { env: reportPeakRss, timeoutMs: 600_000 });
    if (run.code !== 0) throw new Error(`sample --once exited ${run.code}: ${run.stderr.slice(-1000)}`);
    return { peak: peakRssMb(run.stderr), seconds: (Date.now() - started) / 1000, scores: lf.store.scores().length };
  } finally {
    await Promise.all([lf.close(), judge.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const DEFAULT = {};
const WHOLE = { maxTraceBytes: 256 * 1024 * 1024, maxFieldBytes: 64 * 1024 * 1024 };

console.log(
  `sample --once, ${traces} traces with a ${mb} MB answer each, default concurrency; peak RSS of the ragwatch process`,
);
const floor = await measure('v3', 0, DEFAULT);
console.log(`  empty tick (the process's floor under tsx): ${floor.peak.toFixed(0)} MB`);
for (const personality of ['v3', 'v4'] as const) {
  const budgeted = await measure(personality, traces, DEFAULT);
  const whole = await measure(personality, traces, WHOLE);
  console.log(
    `  ${personality}: default read budget ${budgeted.peak.toFixed(0)} MB in ${budgeted.seconds.toFixed(1)} s (${budgeted.scores} scores)` +
      ` | whole traces ${whole.peak.toFixed(0)} MB in ${whole.seconds.toFixed(1)} s (${whole.scores} scores)` +
      ` | above the floor: ${(budgeted.peak - floor.peak).toFixed(0)} vs ${(whole.peak - floor.peak).toFixed(0)} MB`,
  );
}
