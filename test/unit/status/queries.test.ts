import { writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/state/migrations.js';
import { LANGFUSE_API_META_KEY, parseLangfuseApi, recordLangfuseApi } from '../../../src/state/queries/langfuse-api.js';
import { countDead, deadEntries, ledgerByDay, ledgerTotals, utcDay } from '../../../src/state/queries/ledger.js';
import { openStateReadOnly, StateUnreadableError, type ReadOnlyState } from '../../../src/state/queries/read-only.js';
import { cursors, gauges, jobRuns, leases, readMeta } from '../../../src/state/queries/runs.js';
import type { StateStore } from '../../../src/state/types.js';
import { DAY, HOUR, MIN, seedTrace, tempState } from './helpers.js';

const NOW = Date.parse('2025-06-07T15:30:00Z');
const D = (iso: string) => Date.parse(iso);

let tmp: ReturnType<typeof tempState>;
let store: StateStore;
let ro: ReadOnlyState | null = null;

beforeEach(() => {
  tmp = tempState();
  store = tmp.open();
});
afterEach(async () => {
  ro?.close();
  ro = null;
  await store.close();
  tmp.cleanup();
});

async function seedWeek() {
  // 2025-06-07: 3 done, 2 skipped (two reasons), 1 failed, 1 pending
  for (const i of [1, 2, 3])
    await seedTrace(store, `t7-done-${i}`, { status: 'done' }, { sampledAt: D('2025-06-07T10:00:00Z') + i * MIN });
  await seedTrace(
    store,
    't7-skip-a',
    { status: 'skipped', reason: 'not_rag_no_contexts' },
    { sampledAt: D('2025-06-07T00:00:00Z') },
  );
  await seedTrace(
    store,
    't7-skip-b',
    { status: 'skipped', reason: 'pii_residual' },
    { sampledAt: D('2025-06-07T23:59:59.999Z') },
  );
  await seedTrace(
    store,
    't7-failed',
    { status: 'failed', error: 'judge:timeout' },
    { sampledAt: D('2025-06-07T11:00:00Z') },
  );
  await seedTrace(store, 't7-pending', { status: 'pending' }, { sampledAt: D('2025-06-07T12:00:00Z') });
  // 2025-06-05: 1 dead, 1 skipped; its trace timestamps are on 2025-06-04
  await seedTrace(
    store,
    't5-dead',
    { status: 'dead', error: 'metric:faithfulness:http_500' },
    {
      sampledAt: D('2025-06-05T01:00:00Z'),
      traceTimestamp: D('2025-06-04T23:50:00Z'),
      settledAt: D('2025-06-05T03:00:00Z'),
    },
  );
  await seedTrace(
    store,
    't5-skip',
    { status: 'skipped', reason: 'not_rag_no_contexts' },
    { sampledAt: D('2025-06-05T00:00:00Z'), traceTimestamp: D('2025-06-04T23:55:00Z') },
  );
  // 2025-05-20: outside a 7-day window, counted in the totals only
  await seedTrace(
    store,
    'old-dead',
    { status: 'dead', error: 'langfuse:not_found', attempts: 5 },
    { sampledAt: D('2025-05-20T08:00:00Z') },
  );
}

function openRo(): ReadOnlyState {
  ro = openStateReadOnly(tmp.path);
  if (!ro) throw new Error('state file missing');
  return ro;
}

describe('ledger by day', () => {
  it('counts each UTC day of first sampling, every day of the window present, oldest first', async () => {
    await seedWeek();
    const rows = ledgerByDay(openRo(), { now: NOW, days: 7, basis: 'sampled' });
    expect(rows.map((r) => r.day)).toEqual([
      '2025-06-01',
      '2025-06-02',
      '2025-06-03',
      '2025-06-04',
      '2025-06-05',
      '2025-06-06',
      '2025-06-07',
    ]);
    expect(rows[6]).toEqual({
      day: '2025-06-07',
      sampled: 7,
      pending: 1,
      done: 3,
      skipped: 2,
      failed: 1,
      dead: 0,
      skippedByReason: { not_rag_no_contexts: 1, pii_residual: 1 },
    });
    expect(rows[4]).toEqual({
      day: '2025-06-05',
      sampled: 2,
      pending: 0,
      done: 0,
      skipped: 1,
      failed: 0,
      dead: 1,
      skippedByReason: { not_rag_no_contexts: 1 },
    });
    for (const i of [0, 1, 2, 3, 5])
      expect(rows[i]).toMatchObject({ sampled: 0, done: 0, skipped: 0, dead: 0, skippedByReason: {} });
  });

  it('can put traces on the day of their own timestamp instead', async () => {
    await seedWeek();
    const rows = ledgerByDay(openRo(), { now: NOW, days: 7, basis: 'trace' });
    const byDay = Object.fromEntries(rows.map((r) => [r.day, r]));
    expect(byDay['2025-06-04']).toMatchObject({ sampled: 2, dead: 1, skipped: 1 });
    expect(byDay['2025-06-05']).toMatchObject({ sampled: 0 });
    // the 00:00 skip's trace happened at 23:50 the day before
    expect(byDay['2025-06-06']).toMatchObject({ sampled: 1, skippedByReason: { not_rag_no_contexts: 1 } });
    expect(byDay['2025-06-07']).toMatchObject({ sampled: 6 });
  });

  it('covers one day with --days 1 and a long window without gaps', async () => {
    await seedWeek();
    expect(ledgerByDay(openRo(), { now: NOW, days: 1, basis: 'sampled' }).map((r) => [r.day, r.sampled])).toEqual([
      ['2025-06-07', 7],
    ]);
    const long = ledgerByDay(ro, { now: NOW, days: 30, basis: 'sampled' });
    expect(long).toHaveLength(30);
    expect(long.find((r) => r.day === '2025-05-20')).toMatchObject({ sampled: 1, dead: 1 });
    expect(long.reduce((n, r) => n + r.sampled, 0)).toBe(10);
  });

  it('is all zeros without a state file', () => {
    const rows = ledgerByDay(null, { now: NOW, days: 3, basis: 'sampled' });
    expect(rows.map((r) => [r.day, r.sampled])).toEqual([
      ['2025-06-05', 0],
      ['2025-06-06', 0],
      ['2025-06-07', 0],
    ]);
  });

  it('names UTC days', () => {
    expect(utcDay(D('2025-06-07T23:59:59.999Z'))).toBe('2025-06-07');
    expect(utcDay(D('2025-06-08T00:00:00Z'))).toBe('2025-06-08');
  });
});

describe('totals and dead entries', () => {
  it('totals every status, skip reasons and dead failure codes over all days', async () => {
    await seedWeek();
    expect(ledgerTotals(openRo())).toEqual({
      entries: 10,
      pending: 1,
      done: 3,
      skipped: 3,
      failed: 1,
      dead: 2,
      skippedByReason: { not_rag_no_contexts: 2, pii_residual: 1 },
      deadByError: { 'metric:faithfulness:http_500': 1, 'langfuse:not_found': 1 },
      failedByError: { 'judge:timeout': 1 },
    });
  });

  it('lists dead entries most recently dead first, with attempts and the failure code, filtered by when they died', async () => {
    await seedWeek();
    const state = openRo();
    expect(deadEntries(state)).toEqual([
      {
        traceId: 't5-dead',
        attempts: 3,
        lastError: 'metric:faithfulness:http_500',
        diedAt: D('2025-06-05T03:00:00Z'),
        traceTimestamp: D('2025-06-04T23:50:00Z'),
      },
      {
        traceId: 'old-dead',
        attempts: 5,
        lastError: 'langfuse:not_found',
        diedAt: D('2025-05-20T08:00:00Z'),
        traceTimestamp: D('2025-05-20T07:50:00Z'),
      },
    ]);
    expect(deadEntries(state, { diedSince: D('2025-06-01T00:00:00Z') }).map((d) => d.traceId)).toEqual(['t5-dead']);
    expect(deadEntries(state, { limit: 1 }).map((d) => d.traceId)).toEqual(['t5-dead']);
    expect(countDead(state)).toBe(2);
    expect(countDead(state, D('2025-06-05T03:00:00Z'))).toBe(1);
    expect(countDead(state, D('2025-06-05T03:00:00.001Z'))).toBe(0);
  });
});

describe('requeueDead', () => {
  it('puts dead entries back to pending with attempts reset, due at once, and leaves every other entry alone', async () => {
    await seedWeek();
    const before = await store.getEntry('t7-failed');
    const ids = await store.requeueDead({}, NOW);
    expect(ids.sort()).toEqual(['old-dead', 't5-dead']);
    expect(await store.getEntry('t5-dead')).toMatchObject({
      status: 'pending',
      attempts: 0,
      reason: null,
      lastError: 'metric:faithfulness:http_500',
      nextAttemptAt: NOW,
      updatedAt: NOW,
    });
    expect(await store.getEntry('t7-failed')).toEqual(before);
    expect((await store.countByStatus()).dead).toBe(0);
    // the tick reads due work through dueEntries: the re-queued traces are there, oldest trace first
    const due = (await store.dueEntries(NOW, 100)).map((e) => e.traceId);
    expect(due).toEqual(['old-dead', 't5-dead', 't7-failed', 't7-pending']);
    expect(await store.requeueDead({}, NOW)).toEqual([]);
  });

  it('only re-queues what went dead since the given time', async () => {
    await seedWeek();
    expect(await store.requeueDead({ diedSince: D('2025-06-01T00:00:00Z') }, NOW)).toEqual(['t5-dead']);
    expect((await store.getEntry('old-dead'))?.status).toBe('dead');
  });

  it('lets a re-queued trace die again only after a full new set of attempts', async () => {
    await seedTrace(store, 'x', { status: 'dead', error: 'judge:timeout', attempts: 5 }, { sampledAt: NOW - DAY });
    await store.requeueDead({}, NOW);
    expect((await store.startAttempt('x', NOW + MIN)).attempts).toBe(1);
  });
});

describe('runs, leases, cursors, gauges and meta', () => {
  it('reads what the daemon records', async () => {
    await store.recordJobStart('online', NOW - 10 * MIN);
    await store.recordJobFinish('online', 'success', true, NOW - 9 * MIN);
    await store.recordJobStart('online', NOW - 5 * MIN);
    await store.acquireLease('online-tick', { id: 'h:42:abcd', host: 'h', pid: 42 }, 300_000, NOW - 5 * MIN);
    await store.setCursor('online', NOW - 20 * MIN, NOW - 9 * MIN);
    await store.setGauges({ rag_faithfulness_score: 0.8125 }, NOW);
    await recordLangfuseApi(store, 'v4', 'auto', NOW - HOUR);
    const state = openRo();
    expect(jobRuns(state)).toEqual([
      {
        job: 'online',
        lastStartAt: NOW - 5 * MIN,
        lastFinishAt: NOW - 9 * MIN,
        lastSuccessAt: NOW - 9 * MIN,
        lastOutcome: 'success',
      },
    ]);
    expect(leases(state)).toEqual([
      { name: 'online-tick', holder: 'h:42:abcd', host: 'h', pid: 42, acquiredAt: NOW - 5 * MIN, expiresAt: NOW },
    ]);
    expect(cursors(state)).toEqual([{ job: 'online', position: NOW - 20 * MIN, updatedAt: NOW - 9 * MIN }]);
    expect(gauges(state)).toEqual({ rag_faithfulness_score: 0.8125 });
    expect(parseLangfuseApi(readMeta(state, LANGFUSE_API_META_KEY))).toEqual({
      generation: 'v4',
      source: 'detected',
      at: NOW - HOUR,
    });
  });

  it('tells a configured API generation from a detected one and ignores records it cannot read', async () => {
    await recordLangfuseApi(store, 'v3', 'v3', NOW);
    expect(parseLangfuseApi(await store.getMeta(LANGFUSE_API_META_KEY))).toEqual({
      generation: 'v3',
      source: 'configured',
      at: NOW,
    });
    expect(parseLangfuseApi({ value: 'not json', updatedAt: NOW })).toBeNull();
    expect(parseLangfuseApi({ value: '{"generation":"v9"}', updatedAt: NOW })).toBeNull();
    expect(parseLangfuseApi(null)).toBeNull();
  });
});

describe('opening the state read-only', () => {
  it('answers null for a missing file and creates nothing', () => {
    expect(openStateReadOnly(`${tmp.dir}/nope.db`)).toBeNull();
    expect(openStateReadOnly(`${tmp.dir}/nope.db`)).toBeNull();
  });

  it('reads while another connection holds a write transaction, and sees the commit afterwards', async () => {
    await seedTrace(store, 'a', { status: 'done' }, { sampledAt: NOW });
    const writer = new BetterSqlite3(tmp.path);
    writer.pragma('busy_timeout = 5000');
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("UPDATE ledger SET status = 'dead', reason = 'x' WHERE trace_id = 'a'").run();
    const state = openRo();
    expect(ledgerTotals(state)).toMatchObject({ done: 1, dead: 0 });
    writer.exec('COMMIT');
    writer.close();
    expect(ledgerTotals(state)).toMatchObject({ done: 0, dead: 1 });
  });

  it('never writes: the schema version of an older file stays as it was, and its missing tables read as empty', async () => {
    await store.close();
    const old = `${tmp.dir}/v1.db`;
    const db = new BetterSqlite3(old);
    db.pragma('journal_mode = WAL');
    db.exec(MIGRATIONS[0]!.sql);
    db.pragma('user_version = 1');
    db.prepare(
      "INSERT INTO ledger (trace_id, status, trace_timestamp, sample_rate, first_seen_at, updated_at) VALUES ('t', 'done', ?, 0.1, ?, ?)",
    ).run(NOW, NOW, NOW);
    db.close();
    ro = openStateReadOnly(old)!;
    expect(ro.schemaVersion).toBe(1);
    expect(ledgerTotals(ro).done).toBe(1);
    expect(readMeta(ro, LANGFUSE_API_META_KEY)).toBeNull();
    expect(() => ro!.db.exec('CREATE TABLE meta (k)')).toThrow(/readonly/i);
    ro.close();
    const check = new BetterSqlite3(old, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(1);
    check.close();
    ro = null;
    store = tmp.open();
  });

  it('refuses, with a clear reason, files that are not ragwatch state', async () => {
    const garbage = `${tmp.dir}/garbage.db`;
    writeFileSync(garbage, 'this is a text file, not SQLite '.repeat(20));
    expect(() => openStateReadOnly(garbage)).toThrow(StateUnreadableError);
    expect(() => openStateReadOnly(garbage)).toThrow(/not an SQLite database/);

    const other = `${tmp.dir}/other.db`;
    const db = new BetterSqlite3(other);
    db.exec('CREATE TABLE invoices (id INTEGER)');
    db.close();
    expect(() => openStateReadOnly(other)).toThrow(/not a ragwatch state file/);

    const newer = `${tmp.dir}/newer.db`;
    const n = new BetterSqlite3(newer);
    n.exec(MIGRATIONS.map((m) => m.sql).join('\n'));
    n.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    n.close();
    expect(() => openStateReadOnly(newer)).toThrow(/newer ragwatch/);

    expect(() => openStateReadOnly(tmp.dir)).toThrow(StateUnreadableError);
  });

  it('treats an SQLite file nothing has initialised yet as empty, and refuses a 0-byte file', () => {
    const zero = `${tmp.dir}/zero.db`;
    writeFileSync(zero, '');
    expect(() => openStateReadOnly(zero)).toThrow(/is empty \(0 bytes\)/);
    const empty = `${tmp.dir}/empty.db`;
    const blank = new BetterSqlite3(empty);
    blank.exec('CREATE TABLE scratch (a); DROP TABLE scratch;');
    blank.close();
    ro = openStateReadOnly(empty)!;
    expect(ro.schemaVersion).toBe(0);
    expect(ledgerTotals(ro).entries).toBe(0);
    expect(jobRuns(ro)).toEqual([]);
  });
});
