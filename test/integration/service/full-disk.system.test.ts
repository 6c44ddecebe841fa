import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freePort } from '../../helpers/free-port.js';
import { cliCommand } from '../../helpers/run-cli.js';
import { spawnOnTmpfs, tmpfsAvailable, type TmpfsProcess } from '../../helpers/tmpfs.js';
import { seed, startStack, type Stack } from '../online/harness.js';

/**
 * A real full disk under `ragwatch run`: the state file lives on a 16 MB tmpfs mounted for the daemon alone
 * (its own user and mount namespaces), which the test fills while ticks run every two seconds. Readiness
 * must fail naming the disk, the log must carry SQLite's message, and both must recover once space is back.
 */

const MIN = 60_000;
let stack: Stack | undefined;
let daemon: TmpfsProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  const child = daemon?.child;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  stack = daemon = dir = undefined;
});

async function readyz(port: number): Promise<{ status: number; state?: { ok: boolean; detail?: string } } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
    return {
      status: res.status,
      state: ((await res.json()) as { checks: { state?: { ok: boolean; detail?: string } } }).checks.state,
    };
  } catch {
    return null;
  }
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  logs: () => string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ragwatch run on a disk that fills up', () => {
  it("fails readiness naming the full disk, logs SQLite's message, and recovers when space comes back", async () => {
    if (!tmpfsAvailable())
      throw new Error(
        'unshare cannot mount a tmpfs here: apt-get install util-linux and enable user namespaces (npm run test:system)',
      );
    stack = await startStack('v3');
    await seed(stack, 'v3', 30, new Date(Date.now() - 11 * MIN), 61);
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-full-disk-'));
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir);
    const port = await freePort();
    const configFile = join(dir, 'ragwatch.yaml');
    writeFileSync(
      configFile,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: stack.judge.url, model: stack.judge.model },
        embeddings: { model: stack.judge.embeddingModel },
        sampling: { rate: 0.5 },
        online: { schedule: '*/2 * * * * *' },
        state: { path: join(stateDir, 'ragwatch.db') },
        http: { host: '127.0.0.1', port },
      }),
    );
    const [command, args] = cliCommand(['run', '--config', configFile]);
    const fillFlag = join(dir, 'fill');
    const freeFlag = join(dir, 'free');
    daemon = spawnOnTmpfs(
      {
        dir: stateDir,
        sizeKb: 16384,
        fillFlag,
        freeFlag,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test' },
      },
      command,
      args,
    );
    let logs = '';
    daemon.child.stdout!.on('data', (d) => (logs += d));
    daemon.child.stderr!.on('data', (d) => (logs += d));

    await until(
      'ready after the first tick',
      async () => ((await readyz(port))?.status === 200 && /"msg":"online run finished"/.test(logs) ? true : undefined),
      () => logs,
    );
    writeFileSync(fillFlag, '');
    // Traces the next ticks must record, on a disk with no room left.
    await seed(stack, 'v3', 200, new Date(Date.now() - 10.2 * MIN), 62, 0.5);
    const full = await until(
      'readiness to fail',
      async () => {
        const r = await readyz(port);
        return r?.status === 503 ? r : undefined;
      },
      () => logs,
    );
    expect(full.state).toMatchObject({ ok: false });
    expect(full.state!.detail).toMatch(/the disk is full/);
    const line = logs.split('\n').find((l) => l.includes('"error":"state:full"'));
    expect(line, logs.slice(-2000)).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 50, code: 'SQLITE_FULL', detail: 'database or disk is full' });
    expect(logs).not.toMatch(/"err":"Error"/);

    writeFileSync(freeFlag, '');
    await until(
      'readiness to come back',
      async () => ((await readyz(port))?.status === 200 ? true : undefined),
      () => logs,
    );
  }, 120_000);
});
