import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { seed, startStack, type Stack } from '../online/harness.js';

/**
 * The outcome table (docs/operations.md, `ragwatch --help`), one test per row for every one-shot command:
 *   done → 0 · gate failed → 1 · bad config or input, credentials rejected → 2 (one line naming the key) ·
 *   a dependency unreachable or work left incomplete → 3.
 * The daemon's column is in test/integration/service/outcomes.test.ts; the experiment's gate rows in
 * test/integration/experiment/experiment-cli.test.ts.
 */

const MIN = 60_000;
const UNREACHABLE = 'http://127.0.0.1:9';
let stack: Stack;
let lockedJudge: JudgeServer;
let dir: string;
let n = 0;

beforeAll(async () => {
  stack = await startStack('v3');
  await seed(stack, 'v3', 40, new Date(Date.now() - 11 * MIN), 21);
  // A judge that checks its key, as vLLM does with --api-key.
  lockedJudge = await startJudgeServer({ host: '127.0.0.1', port: 0, apiKey: 'the-right-key' });
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-outcomes-'));
}, 60_000);
afterAll(async () => {
  await Promise.all([stack?.close(), lockedJudge?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Sections = Record<string, Record<string, unknown>>;

/** A configuration file against the stand-ins, with `extra` merged per section; its own state file. */
function config(extra: Sections = {}): { file: string; statePath: string } {
  const statePath = join(dir, `state-${++n}.db`);
  const base: Sections = {
    langfuse: {
      baseUrl: stack.lf.url,
      publicKey: stack.lf.publicKey,
      secretKey: stack.lf.secretKey,
      maxAttempts: 2,
      timeoutMs: 5000,
    },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model, maxAttempts: 1, timeoutMs: 5000 },
    embeddings: { model: stack.judge.embeddingModel, maxAttempts: 1 },
    sampling: { rate: 0.5 },
    state: { path: statePath },
    log: { level: 'silent' },
  };
  for (const [section, values] of Object.entries(extra)) base[section] = { ...(base[section] ?? {}), ...values };
  const file = join(dir, `ragwatch-${n}.yaml`);
  writeFileSync(file, stringify(base));
  return { file, statePath };
}

const judgeWithKey = (key: string): Sections => ({
  judge: { baseUrl: lockedJudge.url, model: lockedJudge.model, apiKey: key, maxAttempts: 1 },
  embeddings: { model: lockedJudge.embeddingModel, baseUrl: lockedJudge.url, apiKey: key, maxAttempts: 1 },
});
const wrongLangfuseKeys: Sections = { langfuse: { publicKey: 'pk-lf-rotated', secretKey: 'sk-lf-rotated' } };
const LANGFUSE_KEYS_LINE =
  /^langfuse\.publicKey and langfuse\.secretKey \(LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY\): Langfuse rejected ragwatch's credentials \(.*401\)$/;
const JUDGE_KEY_LINE =
  /^judge\.apiKey \(RAGWATCH_JUDGE_API_KEY\): the judge rejected ragwatch's credentials \(.*401\)$/;

async function cli(args: string[], file: string, stdin?: string) {
  const r = await runCliInProcess(['--config', file, ...args], { cwd: dir, ...(stdin !== undefined ? { stdin } : {}) });
  return { ...r, lines: r.stderr.trim() === '' ? [] : r.stderr.trim().split('\n') };
}

function sampleLine(question = 'What is the refund window?') {
  return `${JSON.stringify({ id: 's1', question, answer: 'Refunds are accepted within 30 days of purchase.', contexts: ['Our refund policy: refunds within 30 days of purchase.'] })}\n`;
}

function emptyStateFile(): string {
  const path = join(dir, `empty-${++n}.db`);
  writeFileSync(path, '');
  return path;
}

describe('ragwatch sample --once', () => {
  it('done → 0', async () => {
    const r = await cli(['sample', '--once'], config().file);
    expect(r.code, r.stderr).toBe(0);
  });
  it('bad configuration → 2, one line naming the key', async () => {
    const r = await cli(['sample', '--once'], config({ sampling: { rate: 2 } }).file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^config: sampling\.rate: /)]);
  });
  it('Langfuse rejects the keys → 2, one line naming the keys', async () => {
    const r = await cli(['sample', '--once'], config(wrongLangfuseKeys).file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(LANGFUSE_KEYS_LINE)]);
  });
  it('the judge rejects the key → 2, one line naming the key, nothing charged', async () => {
    const { file, statePath } = config(judgeWithKey('a-rotated-key'));
    const r = await cli(['sample', '--once'], file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(JUDGE_KEY_LINE)]);
    const state = openSqliteState({ path: statePath });
    const counts = await state.countByStatus();
    const pending = await state.listByStatus('pending', 100);
    await state.close();
    expect(counts.failed + counts.dead + counts.done).toBe(0);
    expect(pending.every((e) => e.attempts === 0)).toBe(true);
  });
  it('Langfuse unreachable → 3', async () => {
    const r = await cli(['sample', '--once'], config({ langfuse: { baseUrl: UNREACHABLE } }).file);
    expect(r.code).toBe(3);
    expect(r.lines).toEqual([expect.stringMatching(/^langfuse unreachable after retries: /)]);
  });
  it('the judge unreachable → 3, the tick incomplete and nothing charged', async () => {
    const r = await cli(
      ['sample', '--once'],
      config({ judge: { baseUrl: UNREACHABLE }, embeddings: { baseUrl: UNREACHABLE } }).file,
    );
    expect(r.code).toBe(3);
    expect(r.lines).toEqual([expect.stringMatching(/^sample: incomplete: metric:[a-z_]+:connection$/)]);
  });
});

describe('ragwatch sample --trace', () => {
  const traceId = () => stack.lf.store.traces()[0]!.id;
  it('done → 0', async () => {
    expect((await cli(['sample', '--trace', traceId(), '--dry-run'], config().file)).code).toBe(0);
  });
  it('an unknown trace → 2', async () => {
    const r = await cli(['sample', '--trace', 'no-such-trace'], config().file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual(['sample: trace no-such-trace not found']);
  });
  it('the judge rejects the key → 2, one line naming the key', async () => {
    const rag = stack.lf.store
      .traces()
      .find((t) => stack.lf.store.observationsOfTrace(t.id).some((o) => o.type === 'RETRIEVER'))!;
    const r = await cli(['sample', '--trace', rag.id], config(judgeWithKey('a-rotated-key')).file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(JUDGE_KEY_LINE)]);
  });
  it('Langfuse unreachable → 3', async () => {
    expect((await cli(['sample', '--trace', 'x'], config({ langfuse: { baseUrl: UNREACHABLE } }).file)).code).toBe(3);
  });
});

describe('ragwatch evaluate', () => {
  it('done → 0', async () => {
    const r = await cli(['evaluate', '--input', '-', '--metrics', 'faithfulness'], config().file, sampleLine());
    expect(r.code, r.stderr).toBe(0);
  });
  it('a malformed line → 2', async () => {
    const r = await cli(
      ['evaluate', '--input', '-', '--metrics', 'faithfulness'],
      config().file,
      `${sampleLine()}{not json\n`,
    );
    expect(r.code).toBe(2);
  });
  it('the judge rejects the key → 2, one line naming the key', async () => {
    const r = await cli(
      ['evaluate', '--input', '-', '--metrics', 'faithfulness'],
      config(judgeWithKey('a-rotated-key')).file,
      sampleLine(),
    );
    expect(r.code).toBe(2);
    expect(r.lines.at(-1)).toMatch(JUDGE_KEY_LINE);
  });
  it('the judge unreachable → 3', async () => {
    const r = await cli(
      ['evaluate', '--input', '-', '--metrics', 'faithfulness'],
      config({ judge: { baseUrl: UNREACHABLE } }).file,
      sampleLine(),
    );
    expect(r.code).toBe(3);
  });
});

describe('ragwatch doctor', () => {
  it('all checks pass → 0', async () => {
    const r = await cli(['doctor'], config().file);
    expect(r.code, r.stdout).toBe(0);
  });
  it('Langfuse rejects the keys → 2', async () => {
    const r = await cli(['doctor'], config(wrongLangfuseKeys).file);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/FAIL\s+langfuse\s+.*keys rejected \(HTTP 401\)/);
  });
  it('the judge rejects the key → 2', async () => {
    const r = await cli(['doctor'], config(judgeWithKey('a-rotated-key')).file);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/FAIL\s+judge-model\s+.*HTTP 401 \(the API key was rejected\)/);
  });
  it("a state file that is not ragwatch's → 2", async () => {
    const r = await cli(['doctor'], config({ state: { path: emptyStateFile() } }).file);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/FAIL\s+state\s+state\.path: .* is empty \(0 bytes\)/);
  });
  it('Langfuse unreachable → 3', async () => {
    expect((await cli(['doctor', '--timeout', '2'], config({ langfuse: { baseUrl: UNREACHABLE } }).file)).code).toBe(3);
  });
});

describe('ragwatch status and retry-dead', () => {
  it('shown → 0 (also before anything ran)', async () => {
    const { file } = config();
    expect((await cli(['status'], file)).code).toBe(0);
    expect((await cli(['retry-dead'], file)).code).toBe(0);
  });
  it('bad arguments or an unusable state file → 2, one line naming it', async () => {
    expect((await cli(['status', '--days', '0'], config().file)).code).toBe(2);
    expect((await cli(['retry-dead', '--since', 'yesterday'], config().file)).code).toBe(2);
    const { file } = config({ state: { path: emptyStateFile() } });
    for (const command of ['status', 'retry-dead']) {
      const r = await cli([command], file);
      expect(r.code, command).toBe(2);
      expect(r.lines).toEqual([expect.stringMatching(/^state\.path: .* is empty \(0 bytes\)/)]);
    }
  });
  it('a state file locked by another process → 3', async () => {
    const { file, statePath } = config();
    const state = openSqliteState({ path: statePath });
    await state.close();
    // Exclusive locking mode: no other process may read until this connection lets go.
    const holder = new BetterSqlite3(statePath);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const r = await cli(['status'], file);
      expect(r.code).toBe(3);
      expect(r.lines).toEqual([
        expect.stringMatching(/^state\.path: .* is locked by another process .*\(SQLITE_BUSY\)/),
      ]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  }, 20_000);
});

describe('ragwatch anonymize and config check', () => {
  it('done → 0', async () => {
    expect((await cli(['anonymize'], config().file, 'Me llamo Lucía Pérez\n')).code).toBe(0);
    expect((await cli(['config', 'check'], config().file)).code).toBe(0);
  });
  it('bad input or configuration → 2', async () => {
    expect((await cli(['anonymize', '--format', 'xml'], config().file, 'x\n')).code).toBe(2);
    const r = await cli(['config', 'check'], config({ sampling: { rate: 2 } }).file);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([expect.stringMatching(/^config: sampling\.rate: /)]);
  });
});

describe('ragwatch experiment run', () => {
  it('the judge rejects the key → 2, one line naming the key, no verdict', async () => {
    const { startHarness } = await import('../experiment/harness.js');
    const { GOLDEN_ITEMS } = await import('@ragwatch/devkit/corpus/index.js');
    const h = await startHarness('v3', {
      judge: lockedJudge,
      items: GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 2),
    });
    try {
      const file = join(h.dir, 'ragwatch.yaml');
      const judgeLine = `judge: {baseUrl: "${lockedJudge.url}", model: ${lockedJudge.model}, apiKey: a-rotated-key, maxAttempts: 1}`;
      const embeddingsLine = `embeddings: {model: ${lockedJudge.embeddingModel}, apiKey: a-rotated-key}`;
      writeFileSync(
        file,
        `${h.yaml(`${judgeLine}\n${embeddingsLine}`)}\nexperiment:\n  reportsDir: ${join(h.dir, 'reports')}\n  target: {url: "${h.rag.askUrl}", response: {answer: answer, contexts: contexts}}\n`,
      );
      const r = await runCliInProcess(['--config', file, 'experiment', 'run'], { cwd: h.dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(JUDGE_KEY_LINE)]);
    } finally {
      await h.close();
    }
  }, 60_000);
});
