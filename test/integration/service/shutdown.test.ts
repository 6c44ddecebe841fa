import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openSqliteState } from '../../../src/state/index.js';
import { spawnCli } from '../../helpers/run-cli.js';
import { seed, startStack, type Stack } from '../online/harness.js';

/**
 * A real SIGTERM to `ragwatch run` while a tick has traces in flight at a slow judge: past the shutdown
 * deadline the in-flight work is abandoned, and abandoned work stays pending with no attempt charged.
 */

const MIN = 60_000;
let stack: Stack | undefined;
let dir: string | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  stack = dir = child = undefined;
});

describe('ragwatch run stopped by SIGTERM mid-tick', () => {
  it('leaves the traces it abandoned pending, uncharged, with no error recorded', async () => {
    stack = await startStack('v3');
    await seed(stack, 'v3', 60, new Date(Date.now() - 11 * MIN), 9);
    // Every judge request takes 20 s: nothing finishes before the 1 s shutdown deadline.
    stack.judge.setServiceTime(20_000);
    dir = mkdtempSync(join(tmpdir(), 'ragwatch-sigterm-'));
    const statePath = join(dir, 'state.db');
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
        judge: { baseUrl: stack.judge.url, model: stack.judge.model },
        embeddings: { model: stack.judge.embeddingModel },
        sampling: { rate: 0.5 },
        online: { concurrency: 4 },
        state: { path: statePath },
        http: { host: '127.0.0.1', port: 0, shutdownDeadlineSeconds: 1 },
      }),
    );
    child = spawnCli(['run', '--config', file]);
    let logs = '';
    child.stdout!.resume();
    child.stderr!.on('data', (d) => (logs += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child!.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + 60_000;
    // the catch-up tick has traces at the judge
    while (stack.judge.requests.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stack.judge.requests.length).toBeGreaterThanOrEqual(4);
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(logs).toMatch(/in-flight work abandoned/);

    const state = openSqliteState({ path: statePath });
    try {
      const counts = await state.countByStatus();
      expect(counts.failed + counts.dead).toBe(0);
      const pending = await state.listByStatus('pending', 1000);
      expect(pending.length).toBeGreaterThanOrEqual(4);
      for (const entry of pending) {
        expect(entry.attempts, entry.traceId).toBe(0);
        expect(entry.lastError, entry.traceId).toBeNull();
        expect(entry.nextAttemptAt, entry.traceId).toBeNull();
      }
    } finally {
      await state.close();
    }
  }, 90_000);
});
