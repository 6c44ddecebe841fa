import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { spawnCli } from '../../helpers/run-cli.js';
import { seed, startStack, type Stack } from '../online/harness.js';

const MIN = 60_000;
let stack: Stack | undefined;
let dir: string | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Daemon {
  child: ChildProcess;
  port: number;
  logs: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startDaemon(configFile: string): Promise<Daemon> {
  const child = spawnCli(['run', '--config', configFile]);
  children.push(child);
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const line = stderr.split('\n').find((l) => l.includes('http listening'));
    if (line) return { child, port: (JSON.parse(line) as { port: number }).port, logs: () => stderr, exit };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`daemon did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function get(port: number, path: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, text: await res.text() };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function metricValue(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').at(-1)) : undefined;
}

describe('ragwatch run', () => {
  it('catches up at start, serves health, readiness and metrics, stops on SIGTERM and restores its gauges', async () => {
    stack = await startStack('v4');
    const seeded = await seed(stack, 'v4', 80, new Date(Date.now() - 11 * MIN), 3);
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-daemon-'));
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: stack.judge.url, model: stack.judge.model },
        embeddings: { model: stack.judge.embeddingModel },
        sampling: { rate: 0.5 },
        state: { path: join(dir, 'state.db') },
        http: { host: '127.0.0.1', port: 0, shutdownDeadlineSeconds: 10 },
      }),
    );

    const first = await startDaemon(file);
    expect((await get(first.port, '/healthz')).status).toBe(200);
    const metrics = await until('the catch-up tick', async () => {
      const m = await get(first.port, '/metrics');
      return metricValue(m.text, 'ragwatch_job_last_success_timestamp_seconds') ? m.text : undefined;
    });
    expect(metricValue(metrics, 'ragwatch_traces_listed_total')).toBe(seeded.traceIds.length);
    expect(metricValue(metrics, 'ragwatch_traces_sampled_total')).toBeGreaterThan(10);
    expect(metricValue(metrics, 'ragwatch_traces_evaluated_total')).toBeGreaterThan(5);
    const faithfulness = metricValue(metrics, 'rag_faithfulness_score');
    expect(faithfulness).toBeGreaterThanOrEqual(0);
    expect(faithfulness).toBeLessThanOrEqual(1);
    expect(metrics).toMatch(/ragwatch_ledger_entries\{status="done"\} \d+/);
    expect(metrics).toMatch(/ragwatch_judge_requests_total\{kind="chat",outcome="ok"\} \d+/);
    expect(metrics).toMatch(/ragwatch_langfuse_requests_total\{route="[^"]+",outcome="ok"\} \d+/);
    for (const id of seeded.traceIds) expect(metrics.includes(id)).toBe(false);
    const ready = await get(first.port, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'ready',
      checks: { state: { ok: true }, langfuse: { ok: true }, ticks: { ok: true } },
    });
    expect(
      stack.lf.store
        .scoreConfigs()
        .map((c) => c.name)
        .sort(),
    ).toEqual(['ragas-answer-relevancy', 'ragas-faithfulness', 'ragwatch-answer-leak']);

    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
    expect(first.logs()).toMatch(/"msg":"stopped"/);

    // The last success is recent: no catch-up this time, yet the gauges come back from the state file.
    const second = await startDaemon(file);
    const restored = await until('metrics after restart', async () => {
      const m = await get(second.port, '/metrics');
      return m.status === 200 ? m.text : undefined;
    });
    expect(metricValue(restored, 'rag_faithfulness_score')).toBe(faithfulness);
    expect(metricValue(restored, 'ragwatch_traces_listed_total')).toBe(0);
    await until('ready', async () => ((await get(second.port, '/readyz')).status === 200 ? true : undefined));
    expect(second.logs()).not.toMatch(/catching up/);
    second.child.kill('SIGINT');
    expect(await second.exit).toEqual({ code: 0, signal: null });
  }, 180_000);

  it('exits 2 when Langfuse rejects the keys', async () => {
    stack = await startStack('v3');
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-daemon-'));
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: 'pk-wrong', secretKey: 'sk-wrong' },
        state: { path: join(dir, 'state.db') },
        http: { host: '127.0.0.1', port: 0 },
      }),
    );
    const daemon = await startDaemon(file);
    expect((await daemon.exit).code).toBe(2);
  }, 60_000);
});
