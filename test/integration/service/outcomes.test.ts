import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { ONLINE_JOB } from '../../../src/online/job.js';
import { EXPERIMENT_JOB, startDaemon, type Daemon } from '../../../src/service/daemon.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startHarness, type Harness } from '../experiment/harness.js';
import { seed, startStack, type Stack } from '../online/harness.js';
import { parseConfig } from '../../helpers/config.js';
import { sleep } from '../../../src/internal/index.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';

/**
 * The daemon's column of the outcome table: done → running and ready; gate failed → gauge (and its alert);
 * bad config or credentials rejected → exit 2 at start, later not ready with the error logged once while the
 * ticks go on; a dependency failing → not ready while it lasts, nothing charged.
 */

const MIN = 60_000;
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function readyz(d: Daemon) {
  const res = await fetch(`http://127.0.0.1:${d.http.port}/readyz`);
  return {
    status: res.status,
    checks: ((await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> }).checks,
  };
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Running {
  stack: Stack;
  langfuse: FaultProxy;
  judge: FaultProxy;
  daemon: Daemon;
  state: StateStore;
  logs: ReturnType<typeof captureLogger>;
  /** More settled traces in the next window, so the next tick has work for the judge and the score writes. */
  moreTraces(seedValue: number): Promise<void>;
}

async function running(): Promise<Running> {
  const stack = await startStack('v3');
  closers.push(() => stack.close());
  await seed(stack, 'v3', 30, new Date(Date.now() - 11 * MIN), 31);
  const langfuse = await startFaultProxy(stack.lf.url);
  const judge = await startFaultProxy(stack.judge.url);
  closers.push(
    () => langfuse.close(),
    () => judge.close(),
  );
  const config = parseConfig({
    langfuse: { baseUrl: langfuse.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey, maxAttempts: 2 },
    judge: { baseUrl: `${judge.url}/v1`, model: stack.judge.model, maxAttempts: 1 },
    embeddings: { model: stack.judge.embeddingModel, maxAttempts: 1 },
    sampling: { rate: 0.5 },
    http: { host: '127.0.0.1', port: 0 },
  });
  const state = openSqliteState({ path: ':memory:' });
  const logs = captureLogger('info');
  const daemon = await startDaemon({ config, runtime: testRuntime({ now: systemClock, logger: logs.logger }), state });
  closers.push(() => daemon.shutdown('test over'));
  await daemon.ready;
  await until('the first tick', async () => ((await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ? true : undefined));
  await until('the first tick to end', () => (daemon.scheduler.runningJobs().length === 0 ? true : undefined));
  expect((await readyz(daemon)).status).toBe(200);
  let offset = 0;
  const moreTraces = async (seedValue: number) => {
    offset += 0.1;
    await seed(stack, 'v3', 30, new Date(Date.now() - (10.2 + offset) * MIN), seedValue, 0.1);
  };
  return { stack, langfuse, judge, daemon, state, logs, moreTraces };
}

describe('ragwatch run: the outcome table', () => {
  it('done: keeps running and ready', async () => {
    const r = await running();
    await r.moreTraces(40);
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    expect((await readyz(r.daemon)).status).toBe(200);
    expect((await r.state.getJobRun(ONLINE_JOB))?.lastOutcome).toBe('success');
  });

  it('bad configuration: exits 2 before anything starts, one line naming the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-run-outcomes-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(file, stringify({ sampling: { rate: 7 }, state: { path: join(dir, 'state.db') } }));
    const r = await runCliInProcess(['run', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^config: sampling\.rate: /)]);
  });

  it('credentials rejected at start (the judge): exits 2, one line naming the key', async () => {
    const stack = await startStack('v3');
    const locked: JudgeServer = await startJudgeServer({ host: '127.0.0.1', port: 0, apiKey: 'the-right-key' });
    closers.push(
      () => stack.close(),
      () => locked.close(),
    );
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-run-outcomes-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: locked.url, model: locked.model, apiKey: 'a-rotated-key' },
        state: { path: join(dir, 'state.db') },
        http: { host: '127.0.0.1', port: 0 },
        log: { level: 'silent' },
      }),
    );
    const r = await runCliInProcess(['run', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      "judge.apiKey (RAGWATCH_JUDGE_API_KEY): the judge rejected ragwatch's credentials (HTTP 401)",
    ]);
  });

  it('credentials rejected later (Langfuse): not ready, the error logged once, the ticks go on, ready again once accepted', async () => {
    const r = await running();
    const rejected = r.langfuse.add({
      match: '*',
      action: { kind: 'respond', status: 401, body: { message: 'Invalid credentials', error: 'UnauthorizedError' } },
    });
    const first = (await r.state.getJobRun(ONLINE_JOB))!.lastStartAt!;
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    const ready = await readyz(r.daemon);
    expect(ready.status).toBe(503);
    expect(ready.checks.langfuse).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^credentials rejected \(langfuse:http_401\) since /),
    });
    const errors = r.logs.records().filter((l) => l.level === 'error' && /rejected ragwatch's credentials/.test(l.msg));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/^langfuse\.publicKey and langfuse\.secretKey .*retrying on every tick$/);
    expect((await r.state.getJobRun(ONLINE_JOB))!.lastStartAt).toBeGreaterThan(first);
    rejected();
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    expect((await readyz(r.daemon)).status).toBe(200);
    expect(r.logs.records().some((l) => l.level === 'info' && l.msg === 'langfuse works again')).toBe(true);
  });

  it('credentials rejected later (the judge): not ready, logged once, nothing charged; ready again once accepted', async () => {
    const r = await running();
    const rejected = r.judge.add({
      match: '*',
      action: { kind: 'respond', status: 401, body: { error: { message: 'Unauthorized' } } },
    });
    await r.moreTraces(41);
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    await r.moreTraces(42);
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    const ready = await readyz(r.daemon);
    expect(ready.status).toBe(503);
    expect(ready.checks.judge).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^credentials rejected \(metric:[a-z_]+:http_401\)/),
    });
    expect(
      r.logs.records().filter((l) => l.level === 'error' && /judge rejected ragwatch's credentials/.test(l.msg)),
    ).toHaveLength(1);
    const counts = await r.state.countByStatus();
    expect(counts.failed + counts.dead).toBe(0);
    expect((await r.state.listByStatus('pending', 1000)).every((e) => e.attempts === 0)).toBe(true);
    rejected();
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    expect((await readyz(r.daemon)).status).toBe(200);
    expect((await r.state.countByStatus()).pending).toBe(0);
  });

  it('a dependency failing for every trace: not ready while it lasts, nothing charged', async () => {
    const r = await running();
    const failing = r.langfuse.add({
      match: 'POST /api/public/ingestion',
      action: { kind: 'respond', status: 503, body: { message: 'unavailable' } },
    });
    await r.moreTraces(43);
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    const ready = await readyz(r.daemon);
    expect(ready.status).toBe(503);
    expect(ready.checks.langfuse).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^failing for every trace \(langfuse:ingestion_http_503\)/),
    });
    expect(
      r.logs.records().filter((l) => l.level === 'warn' && /failing for every trace; not ready/.test(l.msg)),
    ).toHaveLength(1);
    const counts = await r.state.countByStatus();
    expect(counts.failed + counts.dead).toBe(0);
    expect(counts.pending).toBeGreaterThan(0);
    failing();
    await r.daemon.scheduler.trigger(ONLINE_JOB);
    expect((await readyz(r.daemon)).status).toBe(200);
    expect((await r.state.countByStatus()).pending).toBe(0);
  });
});

describe('ragwatch run: a failed gate', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sets the gate gauge to 0 (what RAGGoldenGateFailing fires on) and stays ready', async () => {
    const items = [
      ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 3),
      ...GOLDEN_ITEMS.filter((i) => i.type === 'multi-hop').slice(0, 1),
    ];
    h = await startHarness('v3', { items });
    h.rag.degraded = true;
    const config = h.config({
      http: { host: '127.0.0.1', port: 0, reportsPublic: true },
      online: { enabled: false },
      experiment: { enabled: true },
    });
    const daemon = await startDaemon({
      config,
      runtime: testRuntime({ now: systemClock, logger: captureLogger('warn').logger, sleep }),
      state: h.state,
      connectBackoffMs: 10,
    });
    closers.push(() => daemon.shutdown('test over'));
    await daemon.ready;
    await daemon.scheduler.trigger(EXPERIMENT_JOB);
    const metrics = await (await fetch(`http://127.0.0.1:${daemon.http.port}/metrics`)).text();
    expect(metrics).toMatch(/^rag_golden_gate_passed 0$/m);
    expect(metrics).toMatch(/^rag_golden_last_run_timestamp_seconds [1-9]/m);
    expect((await readyz(daemon)).status).toBe(200);
  }, 120_000);
});
