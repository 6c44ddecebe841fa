import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openSqliteState } from '../../../src/state/index.js';
import { SCHEMA_VERSION } from '../../../src/state/migrations.js';
import { recordLangfuseApi } from '../../../src/state/queries/langfuse-api.js';
import type { StatusReport } from '../../../src/state/queries/status-report.js';
import type { StateStore } from '../../../src/state/types.js';
import type { RetryDeadResult } from '../../../src/commands/retry-dead.js';
import { runCli } from '../../helpers/run-cli.js';

/** The real CLI against a state file seeded through the StateStore API (times relative to the wall clock). */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let dir: string;
let statePath: string;
let configFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-status-cli-'));
  statePath = join(dir, 'state.db');
  configFile = join(dir, 'ragwatch.yaml');
  writeFileSync(
    configFile,
    stringify({
      state: { path: statePath },
      timezone: 'Europe/Madrid',
      online: { schedule: '*/5 * * * *' },
      log: { level: 'silent' },
    }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(['-c', configFile, ...args]);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Yesterday and today (UTC) as the online job leaves them; returns when it was seeded. */
async function seedLedger(): Promise<{ now: number; today: number; yesterday: number }> {
  const now = Date.now();
  const today = Math.max(Math.floor(now / DAY) * DAY + MIN, now - 20 * MIN);
  const yesterday = Math.floor(now / DAY) * DAY - 6 * HOUR;
  const state = openSqliteState({ path: statePath });
  const add = async (id: string, at: number) =>
    state.ensureEntry(
      {
        traceId: id,
        // Ten minutes before it was recorded, but on the same UTC day, whatever the time the test runs at
        // (just after midnight, ten minutes earlier is yesterday, and the day columns would move).
        traceTimestamp: Math.max(Math.floor(at / DAY) * DAY, at - 10 * MIN),
        environment: 'default',
        traceName: 'rag',
        sampleRate: 0.1,
      },
      at,
    );
  for (const id of ['a1', 'a2', 'a3']) {
    await add(id, today);
    await state.startAttempt(id, today);
    await state.markDone(id, [`${id}-f`, `${id}-r`], today);
  }
  await add('a4', today);
  await state.markSkipped('a4', 'not_rag_no_contexts', today);
  await add('a5', today);
  await state.startAttempt('a5', today);
  await state.markFailed('a5', 'judge:timeout', today, today + 5 * MIN);
  await add('a6', today);
  await die(state, 'a6', 'metric:faithfulness:schema_mismatch', today);
  await add('b1', yesterday);
  await state.markSkipped('b1', 'pii_residual', yesterday);
  await add('b2', yesterday);
  await die(state, 'b2', 'langfuse:not_found', yesterday);
  await state.recordJobStart('online', now - 4 * MIN);
  await state.recordJobFinish('online', 'success', true, now - 3 * MIN);
  await state.setCursor('online', now - 15 * MIN, now - 3 * MIN);
  await recordLangfuseApi(state, 'v4', 'auto', now - HOUR);
  await state.close();
  return { now, today, yesterday };
}

async function die(state: StateStore, id: string, error: string, at: number) {
  for (let i = 0; i < 5; i++) await state.startAttempt(id, at);
  await state.markDead(id, error, at);
}

// Every CLI run starts a TypeScript process; shared machines make that slow.
describe('ragwatch status', { timeout: 180_000 }, () => {
  it('prints the ledger by day, totals, dead traces, jobs and the API generation as aligned tables', async () => {
    const { today, yesterday } = await seedLedger();
    const r = await cli('status', '--days', '3');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`state: ${statePath} (schema ${SCHEMA_VERSION})`);
    expect(lines[1]).toMatch(
      /^langfuse api: v4, detected \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(1h ago\) \(langfuse\.apiGeneration: auto\)$/,
    );
    const header = lines.findIndex((l) => /^day\s+sampled\s+pending\s+done\s+skipped\s+failed\s+dead$/.test(l));
    expect(header).toBeGreaterThan(0);
    const table = lines.slice(header + 1, header + 5).map((l) => l.split(/\s+/));
    expect(table[1]).toEqual([dayOf(yesterday), '2', '0', '0', '1', '0', '1']);
    expect(table[2]).toEqual([dayOf(today), '6', '0', '3', '1', '1', '1']);
    expect(table[3]).toEqual(['3', 'days', '8', '0', '3', '2', '1', '2']);
    expect(r.stdout).toMatch(
      new RegExp(`\\n${dayOf(yesterday)}\\s+pii_residual\\s+1\\n${dayOf(today)}\\s+not_rag_no_contexts\\s+1\\n`),
    );
    expect(r.stdout).toMatch(/\ndead\s+2\s+langfuse:not_found 1, metric:faithfulness:schema_mismatch 1\n/);
    expect(r.stdout).toMatch(/\na6\s+5\s+metric:faithfulness:schema_mismatch\s+/);
    expect(r.stdout).toContain('jobs (schedules read in Europe/Madrid; times UTC)');
    expect(r.stdout).toMatch(
      /\nonline\s+\*\/5 \* \* \* \*\s+idle\s+\S+ \S+ \(4m ago\)\s+success\s+\S+ \S+ \(3m ago\)\s+\S+ \S+ \((?:in (?:\d+s|[1-5]m)|now)\)\n/,
    );
    expect(r.stdout).toMatch(/\nexperiment\s+0 3 \* \* 1\s+disabled/);
    expect(r.stdout).toMatch(/\ncursor online: \S+ \S+ \(15m behind now\)/);
  });

  it('prints the documented JSON shape with --json', async () => {
    const { now, today } = await seedLedger();
    const r = await cli('status', '--json', '--days', '2', '--by', 'trace');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as StatusReport;
    expect(report.version).toBe(1);
    expect(report.state).toEqual({ path: statePath, exists: true, schemaVersion: SCHEMA_VERSION });
    expect(report.days.basis).toBe('trace');
    expect(report.days.rows).toHaveLength(2);
    const todayRow = report.days.rows.find((d) => d.day === dayOf(today))!;
    expect(todayRow).toMatchObject({
      done: 3,
      skipped: 1,
      failed: 1,
      dead: 1,
      skippedByReason: { not_rag_no_contexts: 1 },
    });
    expect(report.totals).toEqual({
      entries: 8,
      pending: 0,
      done: 3,
      skipped: 2,
      failed: 1,
      dead: 2,
      skippedByReason: { not_rag_no_contexts: 1, pii_residual: 1 },
      deadByError: { 'metric:faithfulness:schema_mismatch': 1, 'langfuse:not_found': 1 },
      failedByError: { 'judge:timeout': 1 },
    });
    expect(report.failing).toEqual({
      count: 1,
      shown: [expect.objectContaining({ traceId: 'a5', lastError: 'judge:timeout' })],
    });
    expect(report.dead.shown.map((d) => d.traceId)).toEqual(['a6', 'b2']);
    const online = report.jobs.find((j) => j.name === 'online')!;
    expect(online).toMatchObject({
      enabled: true,
      schedule: '*/5 * * * *',
      state: 'idle',
      lastOutcome: 'success',
      intervalSeconds: 300,
      stale: false,
      lease: null,
    });
    const next = Date.parse(online.nextRunAt!);
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThanOrEqual(5 * MIN + 30_000);
    expect(new Date(next).getUTCMinutes() % 5).toBe(0);
    expect(report.jobs.find((j) => j.name === 'experiment')).toMatchObject({ enabled: false, nextRunAt: null });
    expect(report.langfuse).toMatchObject({ configured: 'auto', apiGeneration: 'v4', source: 'detected' });
    expect(report.timezone).toBe('Europe/Madrid');
  });

  it('reads beside a writer holding a write transaction (a daemon mid-tick) without waiting for it', async () => {
    await seedLedger();
    const writer = new BetterSqlite3(statePath);
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE ledger SET status = 'done', reason = NULL WHERE trace_id = 'a4'").run();
    try {
      const r = await cli('status', '--json');
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as StatusReport).totals).toMatchObject({ done: 3, skipped: 2 });
    } finally {
      writer.exec('COMMIT');
      writer.close();
    }
    expect((JSON.parse((await cli('status', '--json')).stdout) as StatusReport).totals).toMatchObject({
      done: 4,
      skipped: 1,
    });
  });

  it('says "no runs yet" and exits 0 when the state file does not exist, creating nothing', async () => {
    const r = await cli('status');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      `no runs yet: ${statePath} does not exist (ragwatch run or ragwatch sample creates it)`,
    );
    expect(r.stdout).toMatch(/online\s+\*\/5 \* \* \* \*\s+never run/);
    const json = JSON.parse((await cli('status', '--json')).stdout) as StatusReport;
    expect(json.state.exists).toBe(false);
    expect(json.totals.entries).toBe(0);
    expect(existsSync(statePath)).toBe(false);
  });

  it('exits 2 with one line naming state.path when the state file is not SQLite', async () => {
    writeFileSync(statePath, 'not a database '.repeat(100));
    const r = await cli('status');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`state.path: ${statePath} is not an SQLite database`);
  });

  it('exits 2 on a bad configuration or bad arguments', async () => {
    writeFileSync(configFile, stringify({ state: { path: statePath }, timezone: 'Mars/Olympus' }));
    const bad = await cli('status');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/timezone/);
    writeFileSync(configFile, stringify({ state: { path: statePath } }));
    for (const args of [
      ['--days', '0'],
      ['--days', 'week'],
      ['--by', 'hour'],
    ]) {
      const r = await cli('status', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/status: --(days|by) must/);
    }
  });
});

describe('ragwatch retry-dead', { timeout: 180_000 }, () => {
  it('dry-runs, re-queues dead traces (all, or since a time) and reports ids only', async () => {
    await seedLedger();
    const dry = await cli('retry-dead', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('dry run: would re-queue 2 dead traces\n  a6\n  b2\n');
    const state = () => openSqliteState({ path: statePath });
    let s = state();
    expect((await s.countByStatus()).dead).toBe(2);
    await s.close();

    const recent = await cli('retry-dead', '--since', '3h', '--json');
    expect(recent.code).toBe(0);
    const result = JSON.parse(recent.stdout) as RetryDeadResult;
    expect(result).toMatchObject({ dryRun: false, count: 1, traceIds: ['a6'] });
    expect(Date.now() - Date.parse(result.since!)).toBeGreaterThanOrEqual(3 * HOUR);
    s = state();
    expect(await s.getEntry('a6')).toMatchObject({ status: 'pending', attempts: 0, reason: null });
    expect((await s.getEntry('b2'))?.status).toBe('dead');
    expect((await s.dueEntries(Date.now(), 100)).map((e) => e.traceId)).toContain('a6');
    await s.close();

    const rest = await cli('retry-dead');
    expect(rest.stdout).toBe(
      're-queued 1 dead trace: pending with attempts reset; the next online tick takes them\n  b2\n',
    );
    const again = await cli('retry-dead');
    expect(again.stdout).toBe('no dead traces: nothing to re-queue\n');
    const status = JSON.parse((await cli('status', '--json')).stdout) as StatusReport;
    expect(status.totals).toMatchObject({ dead: 0, pending: 2 });
  });

  it('touches nothing without a state file, and refuses a bad --since with exit 2', async () => {
    const r = await cli('retry-dead');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`nothing to re-queue: ${statePath} does not exist (no runs yet)\n`);
    expect(existsSync(statePath)).toBe(false);
    const bad = await cli('retry-dead', '--since', 'last tuesday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be/);
  });

  it('exits 2, as every command does, when the state file is not SQLite', async () => {
    writeFileSync(statePath, 'garbage '.repeat(200));
    const r = await cli('retry-dead');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^state\.path: .* is not an SQLite database/);
  });
});
