import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/state/migrations.js';
import { openSqliteState, type StateStore } from '../../../src/state/index.js';

let dir: string;
let store: StateStore;
const entry = (traceId: string, traceTimestamp = 1000) => ({
  traceId,
  traceTimestamp,
  environment: 'production',
  traceName: 'rag',
  sampleRate: 0.1,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-'));
  store = openSqliteState({ path: join(dir, 'nested', 'state.db') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sqlite state', () => {
  it('creates the file in WAL mode at the latest schema, and reopens it', async () => {
    await store.setCursor('online', 42, 1);
    await store.close();
    const db = new BetterSqlite3(join(dir, 'nested', 'state.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    store = openSqliteState({ path: join(dir, 'nested', 'state.db') });
    expect(await store.getCursor('online')).toBe(42);
    expect(await store.getCursor('other')).toBeNull();
  });

  it('refuses a file from a newer ragwatch', async () => {
    await store.close();
    const db = new BetterSqlite3(join(dir, 'nested', 'state.db'));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteState({ path: join(dir, 'nested', 'state.db') })).toThrow(/newer/);
    store = openSqliteState({ path: ':memory:' });
  });

  it('keeps a ledger entry per trace through its life', async () => {
    const first = await store.ensureEntry(entry('t1'), 10);
    expect(first).toMatchObject({
      traceId: 't1',
      status: 'pending',
      attempts: 0,
      scoreIds: [],
      traceTimestamp: 1000,
      sampleRate: 0.1,
    });
    // a second sighting does not reset anything
    await store.startAttempt('t1', 11);
    expect((await store.ensureEntry(entry('t1', 5), 12)).attempts).toBe(1);

    await store.markFailed('t1', 'judge:http_500', 13, 500);
    expect(await store.getEntry('t1')).toMatchObject({
      status: 'failed',
      lastError: 'judge:http_500',
      nextAttemptAt: 500,
    });
    expect((await store.dueEntries(499, 10)).map((e) => e.traceId)).toEqual([]);
    expect((await store.dueEntries(500, 10)).map((e) => e.traceId)).toEqual(['t1']);

    const again = await store.startAttempt('t1', 600);
    expect(again).toMatchObject({ status: 'pending', attempts: 2, lastAttemptAt: 600, nextAttemptAt: null });
    await store.markDone('t1', ['id-a', 'id-b'], 601);
    expect(await store.getEntry('t1')).toMatchObject({ status: 'done', scoreIds: ['id-a', 'id-b'], lastError: null });
  });

  it('lists due entries oldest trace first and counts by status', async () => {
    await store.ensureEntry(entry('late', 3000), 1);
    await store.ensureEntry(entry('early', 1000), 1);
    await store.ensureEntry(entry('skip', 2000), 1);
    await store.markSkipped('skip', 'not_rag_no_contexts', 2);
    await store.ensureEntry(entry('dead', 500), 1);
    await store.markDead('dead', 'judge:timeout', 2);
    expect((await store.dueEntries(10, 10)).map((e) => e.traceId)).toEqual(['early', 'late']);
    expect(await store.earliestPendingTimestamp()).toBe(1000);
    expect(await store.countByStatus()).toEqual({ pending: 2, done: 0, skipped: 1, failed: 0, dead: 1 });
    expect(await store.listByStatus('dead', 5)).toMatchObject([{ traceId: 'dead', reason: 'judge:timeout' }]);
  });

  it('counts attempts for the hourly cap', async () => {
    await store.ensureEntry(entry('a'), 0);
    await store.ensureEntry(entry('b'), 0);
    await store.startAttempt('a', 1000);
    await store.startAttempt('b', 2000);
    await store.startAttempt('a', 3000);
    expect(await store.attemptsSince(1500)).toBe(2);
    expect(await store.attemptsSince(0)).toBe(3);
  });

  it('clears attempt records past their retention, at most once a minute, and refuses an attempt on an unknown trace', async () => {
    const short = openSqliteState({ path: ':memory:', attemptRetentionMs: 1000 });
    await short.ensureEntry(entry('a'), 0);
    await short.startAttempt('a', 0);
    await short.startAttempt('a', 30_000);
    expect(await short.attemptsSince(0)).toBe(2);
    await short.startAttempt('a', 90_000);
    expect(await short.attemptsSince(0)).toBe(1);
    expect((await short.getEntry('a'))!.attempts).toBe(3);
    await expect(short.startAttempt('nobody', 91_000)).rejects.toThrow(/no ledger entry/);
    expect(await short.attemptsSince(0)).toBe(1);
    await short.close();
  });

  it('records job runs and keeps the last success', async () => {
    await store.recordJobStart('online', 100);
    await store.recordJobFinish('online', 'success', true, 110);
    await store.recordJobStart('online', 200);
    await store.recordJobFinish('online', 'incomplete', false, 210);
    expect(await store.getJobRun('online')).toEqual({
      job: 'online',
      lastStartAt: 200,
      lastSuccessAt: 110,
      lastFinishAt: 210,
      lastOutcome: 'incomplete',
    });
    expect(await store.getJobRun('experiment')).toBeNull();
  });

  it('persists gauges', async () => {
    await store.setGauges({ rag_faithfulness_score: 0.9 }, 1);
    await store.setGauges({ rag_faithfulness_score: 0.8, rag_answer_relevancy_score: 0.7 }, 2);
    expect(await store.getGauges()).toEqual({ rag_faithfulness_score: 0.8, rag_answer_relevancy_score: 0.7 });
  });
});

describe('leases', () => {
  const a = { id: 'host1:1:a', host: 'host1', pid: 1 };
  const b = { id: 'host1:2:b', host: 'host1', pid: 2 };
  const remote = { id: 'host2:3:c', host: 'host2', pid: 3 };

  it('lets one holder in at a time until release or expiry', async () => {
    const s = openSqliteState({ path: ':memory:', isProcessAlive: () => true });
    expect(await s.acquireLease('online', a, 1000, 0)).toBe(true);
    expect(await s.acquireLease('online', b, 1000, 10)).toBe(false);
    expect(await s.acquireLease('online', a, 1000, 10)).toBe(true);
    expect(await s.renewLease('online', a, 1000, 500)).toBe(true);
    expect(await s.acquireLease('online', remote, 1000, 1400)).toBe(false);
    expect(await s.acquireLease('online', remote, 1000, 1500)).toBe(true);
    expect(await s.renewLease('online', a, 1000, 1600)).toBe(false);
    await s.releaseLease('online', remote);
    expect(await s.acquireLease('online', b, 1000, 1700)).toBe(true);
    await s.close();
  });

  it('takes over from a dead process on the same host, not from another host', async () => {
    const s = openSqliteState({ path: ':memory:', isProcessAlive: (pid) => pid !== 1 && pid !== 3 });
    expect(await s.acquireLease('online', a, 60_000, 0)).toBe(true);
    expect(await s.acquireLease('online', b, 60_000, 1)).toBe(true);
    await s.releaseLease('online', b);
    expect(await s.acquireLease('online', remote, 60_000, 2)).toBe(true);
    expect(await s.acquireLease('online', b, 60_000, 3)).toBe(false);
    await s.close();
  });

  it('is shared between two handles on the same file', async () => {
    const path = join(dir, 'shared.db');
    const one = openSqliteState({ path, isProcessAlive: () => true });
    const two = openSqliteState({ path, isProcessAlive: () => true });
    expect(await one.acquireLease('online', a, 1000, 0)).toBe(true);
    expect(await two.acquireLease('online', b, 1000, 1)).toBe(false);
    await one.close();
    await two.close();
  });
});
