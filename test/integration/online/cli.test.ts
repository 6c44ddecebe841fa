import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Exchange } from '@ragwatch/devkit/langfuse/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import { runCli, spawnCli } from '../../helpers/run-cli.js';
import { canaryNeedles, CANARY, plantCanaryTraces, seed, startStack, type Personality, type Stack } from './harness.js';

const MIN = 60_000;
const stacks: Stack[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writeConfig(
  stack: Stack,
  extra: Record<string, Record<string, unknown>> = {},
): { dir: string; file: string; statePath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-cli-'));
  dirs.push(dir);
  const statePath = join(dir, 'state.db');
  const config: Record<string, Record<string, unknown>> = {
    langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model },
    embeddings: { model: stack.judge.embeddingModel },
    sampling: { rate: 0.5 },
    state: { path: statePath },
    log: { level: 'info' },
  };
  for (const [section, values] of Object.entries(extra)) config[section] = { ...(config[section] ?? {}), ...values };
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(config));
  return { dir, file, statePath };
}

function scoreTable(stack: Stack): string[] {
  return stack.lf.store
    .scores()
    .map((s) => `${s.traceId} ${s.name} ${s.value} ${s.comment ?? ''}`)
    .sort();
}

describe.each<Personality>(['v3', 'v4'])('ragwatch sample against the %s stand-in', (personality) => {
  it('ends with exactly the scores of a clean run after a SIGKILL mid-tick and a restart', async () => {
    const end = new Date(Date.now() - 11 * MIN);
    const crashed = await startStack(personality);
    const clean = await startStack(personality);
    stacks.push(crashed, clean);
    await Promise.all([seed(crashed, personality, 150, end, 5), seed(clean, personality, 150, end, 5)]);
    // A slow judge, so the tick is still busy when it is killed.
    crashed.judge.setServiceTime(25);
    crashed.judge.setParallelism(2);
    const a = writeConfig(crashed, { online: { concurrency: 2 } });
    const b = writeConfig(clean);

    let written = 0;
    crashed.lf.onExchange((e: Exchange) => {
      if (e.method === 'POST' && e.path === '/api/public/ingestion' && e.status === 207) written += 1;
    });
    const child = spawnCli(['sample', '--once', '--config', a.file]);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    child.stdout!.resume();
    child.stderr!.resume();
    const deadline = Date.now() + 60_000;
    while (written < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(written).toBeGreaterThanOrEqual(4);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const midway = openSqliteState({ path: a.statePath });
    const counts = await midway.countByStatus();
    await midway.close();
    expect(counts.pending).toBeGreaterThan(0);

    const restarted = await runCli(['sample', '--once', '--config', a.file], { timeoutMs: 120_000 });
    expect(restarted.stderr).not.toMatch(/holds the lease/);
    expect(restarted.code).toBe(0);
    const reference = await runCli(['sample', '--once', '--config', b.file], { timeoutMs: 120_000 });
    expect(reference.code).toBe(0);

    const after = scoreTable(crashed);
    expect(after.length).toBeGreaterThan(20);
    expect(after).toEqual(scoreTable(clean));
    expect(crashed.lf.store.droppedScores()).toEqual([]);
    const state = openSqliteState({ path: a.statePath });
    expect((await state.countByStatus()).pending).toBe(0);
    await state.close();
  }, 240_000);

  it('keeps the PII canary out of judge requests, logs, the state file and score comments', async () => {
    const stack = await startStack(personality);
    stacks.push(stack);
    const end = Date.now() - 11 * MIN;
    const canaryIds = plantCanaryTraces(stack, 6, end);
    const cfg = writeConfig(stack, { sampling: { rate: 1 }, log: { level: 'debug' } });

    const tick = await runCli(['sample', '--once', '--config', cfg.file], { timeoutMs: 120_000 });
    expect(tick.code).toBe(0);
    const one = await runCli(['sample', '--trace', canaryIds[0]!, '--config', cfg.file], { timeoutMs: 120_000 });
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/<EMAIL_1>/);
    expect(one.stdout).toMatch(/judge calls \(\d+\):/);

    // the canary traces really went through the judge and got scores
    for (const id of canaryIds) expect(stack.lf.store.scores({ traceId: id }).length, id).toBeGreaterThan(0);
    expect(stack.judge.requests.length).toBeGreaterThan(10);

    const haystacks: Record<string, string> = {
      judgeRequests: JSON.stringify(stack.judge.requests),
      logs: tick.stderr + one.stderr,
      output: tick.stdout + one.stdout,
      scores: JSON.stringify(stack.lf.store.scores().map((s) => ({ comment: s.comment, metadata: s.metadata }))),
      state: ['', '-wal', '-shm']
        .map((suffix) =>
          existsSync(cfg.statePath + suffix) ? readFileSync(cfg.statePath + suffix).toString('latin1') : '',
        )
        .join(''),
    };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const needle of canaryNeedles()) expect(text.includes(needle), `${needle} found in ${where}`).toBe(false);
    }
    expect(haystacks.logs).toContain('online run finished');
    expect(CANARY.email.length).toBeGreaterThan(0);
  }, 180_000);
});

describe('ragwatch sample exit codes and modes', () => {
  it('exits 2 on a bad configuration and on bad arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-cli-'));
    dirs.push(dir);
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, stringify({ sampling: { rate: 2 } }));
    const bad = await runCli(['sample', '--once', '--config', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/sampling\.rate/);
    writeFileSync(file, stringify({ state: { path: join(dir, 'state.db') } }));
    const args = await runCli([
      'sample',
      '--from',
      '2025-01-02T00:00:00Z',
      '--to',
      '2025-01-01T00:00:00Z',
      '--config',
      file,
    ]);
    expect(args.code).toBe(2);
    expect((await runCli(['sample', '--once', '--trace', 'x', '--config', file])).code).toBe(2);
  });

  it('exits 3 when Langfuse cannot be reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-cli-'));
    dirs.push(dir);
    const file = join(dir, 'ragwatch.yaml');
    writeFileSync(
      file,
      stringify({
        langfuse: { baseUrl: 'http://127.0.0.1:9', maxAttempts: 2, timeoutMs: 2000 },
        state: { path: join(dir, 'state.db') },
      }),
    );
    const result = await runCli(['sample', '--once', '--config', file]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable/);
  });

  it('lists what a tick would sample in a dry run, then backfills a window and scores one trace', async () => {
    const stack = await startStack('v3');
    stacks.push(stack);
    const end = new Date(Date.now() - 11 * MIN);
    const seeded = await seed(stack, 'v3', 40, end, 9);
    const cfg = writeConfig(stack, { sampling: { rate: 0.3 } });

    const dry = await runCli(['sample', '--once', '--dry-run', '--config', cfg.file]);
    expect(dry.stderr).not.toMatch(/"level":50/);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/dry run/);
    expect(dry.stdout).toMatch(/u=0\.\d{6} < rate 0\.3; ledger new/);
    expect(stack.lf.store.scores()).toHaveLength(0);
    expect(stack.judge.requests).toHaveLength(0);

    const from = new Date(end.getTime() - 60 * MIN).toISOString();
    const backfill = await runCli([
      'sample',
      '--from',
      from,
      '--to',
      new Date().toISOString(),
      '--config',
      cfg.file,
      '--json',
    ]);
    expect(backfill.stderr).not.toMatch(/^sample:/m);
    expect(backfill.code).toBe(0);
    const report = JSON.parse(backfill.stdout) as { outcome: string; listed: number; evaluated: number };
    expect(report).toMatchObject({ outcome: 'success', listed: seeded.traceIds.length });
    expect(report.evaluated).toBeGreaterThan(0);

    const target = seeded.traces.find((t) => t.expected && t.expected.contexts.length > 0)!;
    const one = await runCli(['sample', '--trace', target.id, '--dry-run', '--config', cfg.file]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/what the judge was given/);
    expect(one.stdout).toMatch(/^  faithfulness = \d\.\d{3}  /m);
    expect(one.stdout).toMatch(/dry run: no score written/);
    expect((await runCli(['sample', '--trace', 'no-such-trace', '--config', cfg.file])).code).toBe(2);
  }, 120_000);
});
