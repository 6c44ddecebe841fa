import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { seedDemo } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import type { StatusReport } from '../../../src/state/queries/status-report.js';
import { runCli, spawnCli } from '../../helpers/run-cli.js';

/** `ragwatch status` beside a live `ragwatch run`: what the daemon records, read while it works. */

const MIN = 60_000;
let lf: LangfuseServer | undefined;
let judge: JudgeServer | undefined;
let dir: string | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all([lf?.close(), judge?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ragwatch status beside a running daemon', { timeout: 300_000 }, () => {
  it('shows the tick running under the daemon’s lease, then its success, and the API generation the daemon detected', async () => {
    lf = await startLangfuseServer({ personality: 'v4', host: '127.0.0.1', port: 0 });
    judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
    await seedDemo({
      langfuseUrl: lf.url,
      publicKey: lf.publicKey,
      secretKey: lf.secretKey,
      personality: 'v4',
      count: 12,
      now: new Date(Date.now() - 11 * MIN),
      windowMinutes: 30,
      dataset: false,
      verify: false,
      seed: 5,
    });
    // A paused judge holds the start-up catch-up tick mid-run while status looks at it.
    judge.pause();
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-daemon-status-'));
    const configFile = join(dir, 'ragwatch.yaml');
    writeFileSync(
      configFile,
      stringify({
        langfuse: { baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey },
        judge: { baseUrl: judge.url, model: judge.model, timeoutMs: 600_000 },
        embeddings: { model: judge.embeddingModel },
        sampling: { rate: 1 },
        state: { path: join(dir, 'state.db') },
        http: { host: '127.0.0.1', port: 0, shutdownDeadlineSeconds: 5 },
        log: { level: 'warn' },
      }),
    );
    const daemon = spawnCli(['run', '--config', configFile]);
    children.push(daemon);
    daemon.stdout!.resume();
    daemon.stderr!.resume();
    const exited = new Promise<number | null>((resolve) => daemon.on('exit', (code) => resolve(code)));

    const status = async (): Promise<StatusReport> => {
      const r = await runCli(['-c', configFile, 'status', '--json'], { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as StatusReport;
    };
    const online = (r: StatusReport) => r.jobs.find((j) => j.name === 'online')!;

    const running = await until('the catch-up tick to show as running', async () => {
      const r = await status();
      return online(r).state === 'running' ? r : undefined;
    });
    expect(online(running).lease).toMatchObject({ pid: daemon.pid });
    expect(running.langfuse).toMatchObject({ apiGeneration: 'v4', source: 'detected' });

    judge.resume();
    const done = await until('the tick to finish', async () => {
      const r = await status();
      return online(r).state === 'idle' ? r : undefined;
    });
    expect(online(done)).toMatchObject({ lastOutcome: 'success', lease: null, stale: false });
    expect(Date.parse(online(done).nextRunAt!)).toBeGreaterThan(Date.parse(online(done).lastStartAt!));
    expect(done.totals.entries).toBeGreaterThan(0);
    expect(done.totals.pending + done.totals.failed).toBe(0);

    daemon.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
