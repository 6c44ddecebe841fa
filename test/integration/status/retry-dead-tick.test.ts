import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RetryDeadResult } from '../../../src/commands/retry-dead.js';
import { seedDemo, type SeedDemoSummary } from '@ragwatch/devkit/corpus/index.js';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StatusReport } from '../../../src/state/queries/status-report.js';
import { runCli } from '../../helpers/run-cli.js';

/**
 * End to end through the real CLI and the devkit stand-ins: a judge that answers off-schema makes every RAG
 * trace of a tick dead; `status` shows them and the API generation `sample` detected; `retry-dead` re-queues
 * them; the next `sample --once`, with the judge fixed, takes them and scores them once.
 */

const MIN = 60_000;
const SCORE_NAMES = ['ragas-faithfulness', 'ragas-answer-relevancy'];

describe.each(['v3', 'v4'] as const)(
  'retry-dead and status against the %s stand-ins',
  { timeout: 300_000 },
  (personality) => {
    let lf: LangfuseServer;
    let judge: JudgeServer;
    let dir: string;
    let configFile: string;
    let statePath: string;
    let seeded: SeedDemoSummary;

    beforeAll(async () => {
      lf = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
      judge = await startJudgeServer({ host: '127.0.0.1', port: 0 });
      seeded = await seedDemo({
        langfuseUrl: lf.url,
        publicKey: lf.publicKey,
        secretKey: lf.secretKey,
        personality,
        count: 16,
        now: new Date(Date.now() - 11 * MIN),
        windowMinutes: 30,
        dataset: false,
        verify: false,
        seed: 11,
      });
      dir = mkdtempSync(join(tmpdir(), 'ragwatch-retry-dead-'));
      statePath = join(dir, 'state.db');
      configFile = join(dir, 'ragwatch.yaml');
      writeFileSync(
        configFile,
        stringify({
          langfuse: { baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey, maxAttempts: 2 },
          judge: { baseUrl: judge.url, model: judge.model, maxAttempts: 1 },
          embeddings: { model: judge.embeddingModel },
          sampling: { rate: 1 },
          online: { maxAttempts: 1 },
          state: { path: statePath },
          log: { level: 'silent' },
        }),
      );
    }, 120_000);

    afterAll(async () => {
      await Promise.all([lf?.close(), judge?.close()]);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const cli = (...args: string[]) => runCli(['-c', configFile, ...args], { timeoutMs: 120_000 });

    it('shows the dead traces, re-queues them, and the next tick scores them exactly once', async () => {
      expect(seeded.traceIds.length).toBeGreaterThan(5);
      judge.faults.always('wrong_schema');
      const first = await cli('sample', '--once', '--json');
      // every trace taken failed and none was evaluated: a failed tick, exit 3
      expect(first.code, first.stderr).toBe(3);
      const firstReport = JSON.parse(first.stdout) as { sampled: number; dead: number; outcome: string };
      expect(firstReport.outcome).toBe('failed');
      expect(firstReport.sampled).toBe(seeded.traceIds.length);
      expect(firstReport.dead).toBeGreaterThan(0);
      expect(lf.store.scores()).toHaveLength(0);

      const before = JSON.parse((await cli('status', '--json')).stdout) as StatusReport;
      expect(before.langfuse).toMatchObject({ configured: 'auto', apiGeneration: personality, source: 'detected' });
      expect(Date.now() - Date.parse(before.langfuse.recordedAt!)).toBeLessThan(10 * MIN);
      expect(before.totals.dead).toBe(firstReport.dead);
      expect(before.totals.entries).toBe(seeded.traceIds.length);
      expect(before.dead.shown.every((d) => d.attempts === 1 && /^metric:[a-z_]+:/.test(d.lastError ?? ''))).toBe(true);
      const today = before.days.rows[before.days.rows.length - 1]!;
      expect(today.sampled).toBe(seeded.traceIds.length);
      expect(today.dead).toBe(firstReport.dead);
      expect(before.jobs.find((j) => j.name === 'online')).toMatchObject({
        state: 'idle',
        lastOutcome: 'failed',
        lastSuccessAt: null,
      });

      const requeue = await cli('retry-dead', '--json');
      expect(requeue.code).toBe(0);
      const requeued = JSON.parse(requeue.stdout) as RetryDeadResult;
      expect(requeued.count).toBe(firstReport.dead);
      // status lists up to ten dead traces: every one of them is among those re-queued
      for (const d of before.dead.shown) expect(requeued.traceIds).toContain(d.traceId);
      expect(before.dead.shown).toHaveLength(Math.min(10, requeued.count));

      judge.faults.clear();
      const second = await cli('sample', '--once', '--json');
      expect(second.code, second.stderr).toBe(0);
      const secondReport = JSON.parse(second.stdout) as { taken: number; dead: number; evaluated: number };
      expect(secondReport.taken).toBe(requeued.count);
      expect(secondReport.dead).toBe(0);

      const state = openSqliteState({ path: statePath });
      try {
        for (const id of requeued.traceIds) {
          const entry = await state.getEntry(id);
          expect(entry?.status, id).toBe('done');
          expect(entry?.attempts).toBe(1);
          for (const name of SCORE_NAMES)
            expect(lf.store.scores({ traceId: id, name }).length, `${id} ${name}`).toBeLessThanOrEqual(1);
          expect(lf.store.scores({ traceId: id }).length, id).toBeGreaterThan(0);
        }
      } finally {
        await state.close();
      }
      const scored = new Set(lf.store.scores().map((s) => s.traceId));
      for (const id of scored)
        expect(requeued.traceIds, `score on a trace that was not re-queued: ${id}`).toContain(id);

      const after = JSON.parse((await cli('status', '--json')).stdout) as StatusReport;
      expect(after.totals).toMatchObject({ dead: 0, pending: 0, failed: 0, done: requeued.count });

      // IDs, codes and counts only: nothing a user asked or was answered reaches the output or the state file
      const human = (await cli('status')).stdout;
      const stateBytes =
        readFileSync(statePath).toString('utf8') +
        (existsSync(`${statePath}-wal`) ? readFileSync(`${statePath}-wal`).toString('utf8') : '');
      for (const trace of seeded.traces) {
        for (const text of [trace.question, trace.answer, trace.userId]) {
          const needle = text.slice(0, 40);
          expect(human.includes(needle), `status output holds ${trace.id}'s text`).toBe(false);
          expect(stateBytes.includes(needle), `state file holds ${trace.id}'s text`).toBe(false);
        }
      }
    });
  },
);
