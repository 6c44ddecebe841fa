import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Timers } from '../../../src/progress/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { seed, startStack, type Stack } from './harness.js';

/**
 * `sample --once` and backfills show their progress on stderr: a live line on a terminal, a JSON `progress`
 * record per timer tick otherwise. The test owns the progress timer and clock: one tick fires while the judge
 * holds a request, nothing waits for real time.
 */
const MIN = 60_000;
let stack: Stack;
let dir: string;
const end = new Date(Date.now() - 11 * MIN);
beforeAll(async () => {
  stack = await startStack('v3');
  await seed(stack, 'v3', 30, end, 11);
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-online-progress-'));
}, 60_000);
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function configFile(level: string): string {
  const file = join(dir, `ragwatch-${++n}.yaml`);
  writeFileSync(
    file,
    stringify({
      langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
      judge: { baseUrl: stack.judge.url, model: stack.judge.model },
      embeddings: { model: stack.judge.embeddingModel },
      sampling: { rate: 1 },
      state: { path: join(dir, `state-${n}.db`) },
      log: { level },
    }),
  );
  return file;
}

describe('sample progress', () => {
  it('a tick on a terminal: a live line that counts traces as the listing finds them, cleared at the end', async () => {
    const res = await runCliInProcess(['sample', '--once', '--config', configFile('silent')], {
      cwd: dir,
      stderrIsTTY: true,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('\r\x1b[2Konline tick 0 traces · 0 judge calls in flight · 0:00 elapsed');
    expect(res.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(res.stdout).not.toContain('\x1b');
    expect(res.stdout).toMatch(/^tick: success/);
  });

  it('a backfill without a terminal: a JSON progress record when the timer ticks', async () => {
    let now = 0;
    const ticks: Array<() => void> = [];
    const timers: Timers = { setInterval: (fn) => ticks.push(fn), clearInterval: () => void ticks.splice(0) };
    stack.judge.setServiceTime(100);
    stack.judge.requests.length = 0;
    const from = new Date(end.getTime() - 60 * MIN).toISOString();
    const run = runCliInProcess(
      ['sample', '--from', from, '--to', new Date().toISOString(), '--config', configFile('info')],
      {
        cwd: dir,
        context: { now: () => now, timers },
      },
    );
    let done = false;
    void run.finally(() => (done = true));
    while (!done && !stack.judge.requests.some((r) => r.path === '/v1/chat/completions'))
      await new Promise((r) => setImmediate(r));
    now += 15_000;
    for (const tick of ticks) tick();
    const res = await run;
    stack.judge.setServiceTime(0);
    expect(res.code, res.stderr).toBe(0);
    const records = res.stderr
      .split('\n')
      .filter((l) => l.includes('"progress"'))
      .map(
        (l) =>
          JSON.parse(l) as {
            msg: string;
            progress: { label: string; unit: string; done: number; total: number; note: string; inFlight: number };
          },
      );
    expect(records).toHaveLength(1);
    expect(records[0]!.msg).toMatch(
      /^progress: backfill \d+\/\d+\+? traces( \(\d+ %\))? · listed \d+ · \d+ judge calls? in flight · 0:15 elapsed/,
    );
    expect(records[0]!.progress).toMatchObject({ label: 'backfill', unit: 'traces' });
    expect(records[0]!.progress.total).toBeGreaterThan(0);
    expect(records[0]!.progress.inFlight).toBeGreaterThan(0);
  });
});
