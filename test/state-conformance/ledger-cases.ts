import { describe, expect, it } from 'vitest';
import type { StateBackend } from './backend.js';
import { entry, freshState } from './context.js';

/** Ledger transitions, the attempt cap, re-queueing dead entries, and the cursor. */
export function ledgerCases(backend: StateBackend): void {
  describe(`${backend.name}: ledger`, () => {
    const ctx = freshState(backend);

    it('keeps a ledger entry per trace through its life', async () => {
      const { store } = ctx;
      const first = await store.ensureEntry(entry('t1'), 10);
      expect(first).toEqual({
        traceId: 't1',
        status: 'pending',
        reason: null,
        attempts: 0,
        lastError: null,
        scoreIds: [],
        traceTimestamp: 1000,
        environment: 'production',
        traceName: 'rag',
        sampleRate: 0.1,
        firstSeenAt: 10,
        updatedAt: 10,
        lastAttemptAt: null,
        nextAttemptAt: null,
      });
      await store.startAttempt('t1', 11);
      // A second sighting resets nothing.
      expect(await store.ensureEntry(entry('t1', 5), 12)).toMatchObject({
        attempts: 1,
        traceTimestamp: 1000,
        firstSeenAt: 10,
      });
      await store.markFailed('t1', 'judge:http_500', 13, 500);
      expect(await store.getEntry('t1')).toMatchObject({
        status: 'failed',
        lastError: 'judge:http_500',
        nextAttemptAt: 500,
        updatedAt: 13,
      });
      expect((await store.dueEntries(499, 10)).map((e) => e.traceId)).toEqual([]);
      expect((await store.dueEntries(500, 10)).map((e) => e.traceId)).toEqual(['t1']);
      const again = await store.startAttempt('t1', 600);
      expect(again).toMatchObject({ status: 'pending', attempts: 2, lastAttemptAt: 600, nextAttemptAt: null });
      await store.markDone('t1', ['id-a', 'id-b'], 601);
      expect(await store.getEntry('t1')).toMatchObject({
        status: 'done',
        scoreIds: ['id-a', 'id-b'],
        lastError: null,
        reason: null,
      });
      expect(await store.getEntry('nobody')).toBeNull();
    });

    it('skips, kills and gives an attempt back', async () => {
      const { store } = ctx;
      await store.ensureEntry(entry('s'), 1);
      await store.markSkipped('s', 'not_rag_no_contexts', 2);
      expect(await store.getEntry('s')).toMatchObject({
        status: 'skipped',
        reason: 'not_rag_no_contexts',
        nextAttemptAt: null,
      });
      await store.ensureEntry(entry('d'), 1);
      await store.startAttempt('d', 2);
      await store.markDead('d', 'judge:timeout', 3);
      expect(await store.getEntry('d')).toMatchObject({
        status: 'dead',
        reason: 'judge:timeout',
        lastError: 'judge:timeout',
      });
      await store.ensureEntry(entry('p'), 1);
      await store.startAttempt('p', 2);
      await store.markPending('p', 3);
      expect(await store.getEntry('p')).toMatchObject({ status: 'pending', attempts: 0 });
      // Never below zero.
      await store.markPending('p', 4);
      expect((await store.getEntry('p'))!.attempts).toBe(0);
    });

    it('lists due entries oldest trace first, limited, and counts by status', async () => {
      const { store } = ctx;
      await store.ensureEntry(entry('late', 3000), 1);
      await store.ensureEntry(entry('early', 1000), 1);
      await store.ensureEntry(entry('b-same', 2000), 1);
      await store.ensureEntry(entry('a-same', 2000), 1);
      await store.ensureEntry(entry('skip', 2000), 1);
      await store.markSkipped('skip', 'not_rag_no_contexts', 2);
      await store.ensureEntry(entry('dead', 500), 1);
      await store.markDead('dead', 'judge:timeout', 2);
      expect((await store.dueEntries(10, 10)).map((e) => e.traceId)).toEqual(['early', 'a-same', 'b-same', 'late']);
      expect((await store.dueEntries(10, 2)).map((e) => e.traceId)).toEqual(['early', 'a-same']);
      expect(await store.earliestPendingTimestamp()).toBe(1000);
      expect(await store.countByStatus()).toEqual({ pending: 4, done: 0, skipped: 1, failed: 0, dead: 1 });
      expect(await store.listByStatus('dead', 5)).toMatchObject([{ traceId: 'dead', reason: 'judge:timeout' }]);
      expect(await store.listByStatus('pending', 1)).toMatchObject([{ traceId: 'early' }]);
    });

    it('has no earliest pending timestamp and zero counts when empty', async () => {
      expect(await ctx.store.earliestPendingTimestamp()).toBeNull();
      expect(await ctx.store.countByStatus()).toEqual({ pending: 0, done: 0, skipped: 0, failed: 0, dead: 0 });
      expect(await ctx.store.dueEntries(0, 10)).toEqual([]);
    });

    it('counts attempts for the hourly cap and prunes old ones', async () => {
      const { store } = ctx;
      await store.ensureEntry(entry('a'), 0);
      await store.ensureEntry(entry('b'), 0);
      await store.startAttempt('a', 1000);
      await store.startAttempt('b', 2000);
      await store.startAttempt('a', 3000);
      expect(await store.attemptsSince(1500)).toBe(2);
      expect(await store.attemptsSince(0)).toBe(3);
      const short = await ctx.open({ attemptRetentionMs: 1000 });
      await short.startAttempt('a', 90_000);
      expect(await short.attemptsSince(0)).toBe(1);
      expect((await short.getEntry('a'))!.attempts).toBe(3);
    });

    it('refuses an attempt on an unknown trace and records nothing', async () => {
      await expect(ctx.store.startAttempt('nobody', 1)).rejects.toThrow(/no ledger entry/);
      expect(await ctx.store.attemptsSince(0)).toBe(0);
    });

    it('re-queues dead entries, all or those dead since a time', async () => {
      const { store } = ctx;
      for (const [id, ts] of [
        ['x', 3000],
        ['y', 1000],
        ['z', 2000],
      ] as const) {
        await store.ensureEntry(entry(id, ts), 0);
        await store.startAttempt(id, 1);
      }
      await store.markDead('x', 'judge:timeout', 100);
      await store.markDead('y', 'judge:timeout', 200);
      await store.markDead('z', 'judge:timeout', 300);
      expect(await store.requeueDead({ diedSince: 200 }, 400)).toEqual(['y', 'z']);
      expect(await store.getEntry('y')).toMatchObject({
        status: 'pending',
        attempts: 0,
        reason: null,
        nextAttemptAt: 400,
      });
      expect((await store.getEntry('x'))!.status).toBe('dead');
      expect(await store.requeueDead({}, 500)).toEqual(['x']);
      expect(await store.requeueDead({}, 600)).toEqual([]);
    });

    it('sees one entry per trace from two connections at once', async () => {
      const other = await ctx.open();
      const [a, b] = await Promise.all([ctx.store.ensureEntry(entry('t'), 1), other.ensureEntry(entry('t', 9), 2)]);
      expect(a.traceId).toBe('t');
      expect(b.traceTimestamp).toBe(a.traceTimestamp);
      expect((await other.countByStatus()).pending).toBe(1);
      await Promise.all([ctx.store.startAttempt('t', 3), other.startAttempt('t', 4)]);
      expect((await ctx.store.getEntry('t'))!.attempts).toBe(2);
      expect(await other.attemptsSince(0)).toBe(2);
    });
  });

  describe(`${backend.name}: cursor and job runs`, () => {
    const ctx = freshState(backend);

    it('keeps a cursor per job', async () => {
      expect(await ctx.store.getCursor('online')).toBeNull();
      await ctx.store.setCursor('online', 42, 1);
      await ctx.store.setCursor('online', 1_767_225_600_000, 2);
      await ctx.store.setCursor('other', 7, 2);
      const other = await ctx.open();
      expect(await other.getCursor('online')).toBe(1_767_225_600_000);
      expect(await other.getCursor('other')).toBe(7);
    });

    it('records job runs and keeps the last success', async () => {
      const { store } = ctx;
      await store.recordJobStart('online', 100);
      expect(await store.getJobRun('online')).toEqual({
        job: 'online',
        lastStartAt: 100,
        lastSuccessAt: null,
        lastFinishAt: null,
        lastOutcome: null,
      });
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
  });
}
