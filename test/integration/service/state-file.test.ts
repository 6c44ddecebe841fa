import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ONLINE_JOB } from '../../../src/online/job.js';
import { startDaemon, type Daemon } from '../../../src/service/daemon.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { seed, stackConfig, startStack, type Stack } from '../online/harness.js';
import { sleep } from '../../../src/internal/index.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';

/**
 * The daemon's state file under a careless operator and a full disk: deleted or replaced while `run` is up
 * (real files), and writes failing with SQLITE_FULL (SQLite's own error, from a page limit put on the
 * daemon's connection). Readiness fails with the reason, the tick refuses to write into a file nobody will
 * read again, and the log says what happened, with a message.
 */

const MIN = 60_000;
let stack: Stack | undefined;
let daemon: Daemon | undefined;
let dir: string | undefined;
afterEach(async () => {
  await daemon?.shutdown('test over');
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  stack = daemon = dir = undefined;
});

async function readyz(
  d: Daemon,
): Promise<{ status: number; body: { status: string; checks: Record<string, { ok: boolean; detail?: string }> } }> {
  const res = await fetch(`http://127.0.0.1:${d.http.port}/readyz`);
  return { status: res.status, body: (await res.json()) as never };
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

async function startWithState(options: { configure?: (db: Database) => void } = {}) {
  stack = await startStack('v3');
  await seed(stack, 'v3', 40, new Date(Date.now() - 11 * MIN), 4);
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-file-'));
  const statePath = join(dir, 'state.db');
  const config = stackConfig(stack, {
    sampling: { rate: 0.5 },
    state: { path: statePath },
    http: { host: '127.0.0.1', port: 0 },
  });
  const logs = captureLogger('info');
  const state: StateStore = openSqliteState({
    path: statePath,
    ...(options.configure ? { configure: options.configure } : {}),
  });
  daemon = await startDaemon({ config, runtime: testRuntime({ now: systemClock, logger: logs.logger, sleep }), state });
  await daemon.ready;
  const started = daemon;
  // the catch-up tick at start succeeds first
  await until('the first tick', async () => ((await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ? true : undefined));
  await until('the first tick to finish', () => (started.scheduler.runningJobs().length === 0 ? true : undefined));
  expect((await readyz(started)).status).toBe(200);
  return { statePath, logs, state, daemon: started };
}

describe('the state file changes under a running daemon', () => {
  it('deleted: readiness fails, the tick refuses to run, and an error is logged', async () => {
    const { statePath, logs, daemon: d } = await startWithState();
    for (const suffix of ['', '-wal', '-shm']) rmSync(statePath + suffix, { force: true });
    const ready = await readyz(d);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.state).toMatchObject({ ok: false });
    expect(ready.body.checks.state!.detail).toMatch(/deleted/);
    await d.scheduler.trigger(ONLINE_JOB);
    const refusal = logs.records().find((r) => r.level === 'error' && r.error === 'state:deleted');
    expect(refusal?.msg).toMatch(/deleted/);
  });

  it('replaced by another file (a restored backup): readiness fails and the tick refuses to run', async () => {
    const { statePath, logs, daemon: d, state } = await startWithState();
    const backup = join(dir!, 'backup.db');
    copyFileSync(statePath, backup);
    renameSync(backup, statePath);
    const ready = await readyz(d);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.state!.detail).toMatch(/replaced/);
    const before = await state.getJobRun(ONLINE_JOB);
    await d.scheduler.trigger(ONLINE_JOB);
    expect(logs.records().some((r) => r.level === 'error' && r.error === 'state:replaced')).toBe(true);
    // nothing written into the orphaned file either
    expect((await state.getJobRun(ONLINE_JOB))?.lastStartAt).toBe(before?.lastStartAt);
  });
});

describe('a full disk under a running daemon', () => {
  it('fails readiness with the reason and logs the SQLite error with its message', async () => {
    let db: Database | undefined;
    const { logs, daemon: d } = await startWithState({ configure: (connection) => (db = connection) });
    // More traces to record, and no page left to record them in.
    await seed(stack!, 'v3', 300, new Date(Date.now() - 10.5 * MIN), 5, 1);
    const pages = db!.pragma('page_count', { simple: true }) as number;
    db!.pragma(`max_page_count = ${pages}`);
    await d.scheduler.trigger(ONLINE_JOB);
    const ready = await readyz(d);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.state).toMatchObject({ ok: false });
    expect(ready.body.checks.state!.detail).toMatch(/the disk is full/);
    const failure = logs.records().find((r) => r.level === 'error' && r.error === 'state:full');
    expect(failure?.detail).toMatch(/database or disk is full/);
    expect(logs.text()).not.toMatch(/"err":"Error"/);

    // space comes back: the next tick writes again and readiness recovers
    db!.pragma('max_page_count = 1073741823');
    await d.scheduler.trigger(ONLINE_JOB);
    expect((await readyz(d)).status).toBe(200);
  });
});
