import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import type { Timers } from '../../../src/progress/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/**
 * `evaluate` shows its progress on stderr: a live line on a terminal, else a JSON `progress` log record on each
 * tick of its timer. The timer and the clock are the test's: a tick fires once the judge has a request in
 * hand, with the clock moved 15 s, and nothing waits for real time to pass.
 */
let judge: JudgeServer;
let dir: string;
beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-progress-'));
});
afterAll(async () => {
  await judge.close();
  await rm(dir, { recursive: true, force: true });
});

const sample = (i: number) =>
  JSON.stringify({
    id: `s-${i}`,
    question: `How long does a plain VACUUM lock a PostgreSQL table? (${i})`,
    answer: 'A plain VACUUM only takes a SHARE UPDATE EXCLUSIVE lock, so it runs alongside reads and writes.',
    contexts: ['A plain VACUUM takes a SHARE UPDATE EXCLUSIVE lock and runs alongside normal reads and writes.'],
  });

async function files(level: string) {
  const config = join(dir, `ragwatch-${level}.yaml`);
  await writeFile(
    config,
    `judge:\n  baseUrl: ${judge.url}\n  maxAttempts: 1\nembeddings:\n  model: ${judge.embeddingModel}\nlog:\n  level: ${level}\n`,
  );
  const input = join(dir, 'in.jsonl');
  await writeFile(input, `${[1, 2, 3].map(sample).join('\n')}\n`);
  return { config, input };
}

/** Interval timers that fire only when the test says so, and a clock the test moves. */
function handTimers() {
  let now = 0;
  const callbacks: Array<() => void> = [];
  const timers: Timers = {
    setInterval: (fn) => callbacks.push(fn),
    clearInterval: (id) => void (callbacks[(id as number) - 1] = () => {}),
  };
  return {
    now: () => now,
    timers,
    fire: (advanceMs: number) => ((now += advanceMs), callbacks.forEach((fn) => fn())),
    registered: () => callbacks.length,
  };
}

/** Runs `evaluate`, firing the progress timer once while the judge holds a request. */
async function evaluateWithTick(args: string[], hand: ReturnType<typeof handTimers>) {
  judge.setServiceTime(200);
  judge.requests.length = 0;
  const run = runCliInProcess(args, { cwd: dir, context: { now: hand.now, timers: hand.timers } });
  let fired = false;
  const watch = (async () => {
    while (!fired) {
      const busy = judge.requests.some((r) => r.path === '/v1/chat/completions');
      if (busy) {
        hand.fire(15_000);
        fired = true;
      } else await new Promise((r) => setImmediate(r));
    }
  })();
  const result = await run;
  fired = true;
  await watch;
  judge.setServiceTime(0);
  return result;
}

describe('evaluate progress', () => {
  it('on a terminal: a live line on stderr, cleared at the end, nothing on stdout', async () => {
    const { config, input } = await files('silent');
    const res = await runCliInProcess(['--config', config, 'evaluate', '--input', input, '--metrics', 'faithfulness'], {
      cwd: dir,
      stderrIsTTY: true,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('\r\x1b[2Kevaluate 0/3 samples (0 %) · 0 judge calls in flight · 0:00 elapsed');
    // The line is cleared before the summary is printed under it.
    const clear = res.stderr.lastIndexOf('\r\x1b[2K');
    const after = res.stderr.slice(clear + '\r\x1b[2K'.length);
    expect(after).toMatch(/^metric\s+mean/);
    expect(after).not.toContain('in flight');
    expect(after).toContain('3 samples evaluated');
    expect(res.stdout).not.toContain('\x1b');
    expect(res.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('without a terminal: a JSON progress record per timer tick, with the judge calls in flight', async () => {
    const { config, input } = await files('info');
    const hand = handTimers();
    const res = await evaluateWithTick(
      ['--config', config, 'evaluate', '--input', input, '--metrics', 'faithfulness'],
      hand,
    );
    expect(res.code).toBe(0);
    expect(hand.registered()).toBe(1);
    expect(res.stderr).not.toContain('\r');
    const records = res.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; progress?: Record<string, unknown> })
      .filter((r) => r.progress);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.level).toBe(30);
    expect(record!.msg).toMatch(
      /^progress: evaluate \d\/3 samples \(\d+ %\) · [1-9]\d* judge calls? in flight · 0:15 elapsed/,
    );
    expect(record!.progress).toMatchObject({
      label: 'evaluate',
      unit: 'samples',
      total: 3,
      totalFinal: true,
      elapsedMs: 15_000,
    });
    expect(record!.progress!.inFlight).toBeGreaterThan(0);
  });

  it('--no-progress: no line and no record, even when the timer would fire', async () => {
    const { config, input } = await files('info');
    const hand = handTimers();
    const res = await evaluateWithTick(
      ['--config', config, 'evaluate', '--input', input, '--metrics', 'faithfulness', '--no-progress'],
      hand,
    );
    expect(res.code).toBe(0);
    expect(hand.registered()).toBe(0);
    expect(res.stderr).not.toContain('progress');
  });
});
