import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { seed, startStack, type Stack } from './harness.js';

/**
 * `sample --once --dry-run` plans what the tick does: the whole backlog (every capped window of a 24 h look-back),
 * the same sampling, caps, extraction and skip decisions. The plan is compared with the real tick that follows.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
let stack: Stack;
let dir: string;
let file: string;

interface Plan {
  listed: number;
  sampled: number;
  taken: number;
  deferred: number;
  evaluate: number;
  skipped: Record<string, number>;
  planned: Array<{ traceId: string; action: string; reason?: string }>;
}
interface Report {
  listed: number;
  sampled: number;
  taken: number;
  deferred: number;
  evaluated: number;
  skipped: Record<string, number>;
  traces: Array<{ traceId: string; status: string; reason?: string }>;
}

beforeAll(async () => {
  stack = await startStack('v3');
  // 30 RAG traces spread over the last 20 hours, and three that retrieve nothing (the tick skips them: not_rag).
  const end = new Date(Date.now() - 11 * MIN);
  await seed(stack, 'v3', 30, end, 13, 20 * 60);
  for (let i = 0; i < 3; i++) {
    stack.lf.store.upsertTrace({
      id: `smalltalk-${i}`,
      name: 'chat',
      timestamp: end.getTime() - (2 + 5 * i) * HOUR,
      input: 'Hola, ¿qué tal?',
      output: '¡Hola! ¿En qué puedo ayudarte?',
    });
  }
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-dry-run-'));
  file = join(dir, 'ragwatch.yaml');
  writeFileSync(
    file,
    stringify({
      langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
      judge: { baseUrl: stack.judge.url, model: stack.judge.model },
      embeddings: { model: stack.judge.embeddingModel },
      // Every trace sampled, a 24 h look-back in windows of 4 h, and a per-tick cap the backlog exceeds.
      sampling: { rate: 1, maxPerTick: 25 },
      online: { initialLookbackSeconds: 24 * 3600, maxWindowSeconds: 4 * 3600 },
      state: { path: join(dir, 'state.db') },
      log: { level: 'silent' },
    }),
  );
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCliInProcess(['--config', file, ...args], { cwd: dir });

describe('sample --once --dry-run', () => {
  it('plans what the tick then does: the whole backlog, the same takes and the same skips', async () => {
    const dry = await cli(['sample', '--once', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as Plan;
    expect(stack.judge.requests).toHaveLength(0);
    expect(stack.lf.store.scores()).toHaveLength(0);

    const text = await cli(['sample', '--once', '--dry-run']);
    expect(text.code).toBe(0);

    const tick = await cli(['sample', '--once', '--json', '--no-progress']);
    expect(tick.code, tick.stderr).toBe(0);
    const report = JSON.parse(tick.stdout) as Report;

    expect(report.listed).toBe(33);
    expect(report.taken).toBe(25);
    expect(report.skipped.not_rag).toBeGreaterThanOrEqual(1);
    expect({
      listed: plan.listed,
      sampled: plan.sampled,
      taken: plan.taken,
      deferred: plan.deferred,
      evaluate: plan.evaluate,
      skipped: plan.skipped,
    }).toEqual({
      listed: report.listed,
      sampled: report.sampled,
      taken: report.taken,
      deferred: report.deferred,
      evaluate: report.evaluated,
      skipped: report.skipped,
    });
    // Trace by trace: what the plan says of each trace the tick took is what the tick did.
    const did = new Map(report.traces.map((t) => [t.traceId, t.status === 'done' ? 'evaluate' : t.status]));
    const planned = new Map(
      plan.planned.filter((p) => p.action === 'evaluate' || p.action === 'skip').map((p) => [p.traceId, p.action]),
    );
    expect(new Map([...did].map(([id, s]) => [id, s === 'skipped' ? 'skip' : s]))).toEqual(planned);

    // Each count is explained in one line under the table.
    for (const label of ['listed', 'sampled', 'taken', 'deferred', 'evaluate', 'skip'])
      expect(text.stdout, label).toMatch(new RegExp(`^  ${label} +\\d+  \\S.*$`, 'm'));
    expect(text.stdout).toMatch(/^ {2}skip +\d+ .*not_rag/m);
  });

  it('--help explains the counts', async () => {
    const help = await runCliInProcess(['sample', '--help']);
    for (const label of ['listed', 'sampled', 'taken', 'deferred', 'evaluate', 'skip'])
      expect(help.stdout, label).toMatch(new RegExp(`^  ${label} +\\S`, 'm'));
  });
});
