import { describe, expect, it } from 'vitest';
import type { StateBackend } from './backend.js';
import { freshState } from './context.js';

const entry = (traceId: string, traceTimestamp: number) => ({
  traceId,
  traceTimestamp,
  environment: null,
  traceName: 'rag',
  sampleRate: 1,
});
const ids = (entries: Array<{ traceId: string }>) => entries.map((e) => e.traceId);

/** Claims on ledger entries (replicas sharing the work) and who holds a lease. */
export function claimCases(backend: StateBackend): void {
  describe(`${backend.name}: ledger claims`, () => {
    const ctx = freshState(backend);
    const seed = async () => {
      const s = await ctx.open({ shared: true });
      for (const [id, ts] of [
        ['c', 3],
        ['a', 1],
        ['b', 2],
        ['d', 4],
      ] as const)
        await s.ensureEntry(entry(id, ts), 0);
      return s;
    };

    it('hands out due entries oldest first, never one already claimed, until the claim ends or expires', async () => {
      const s = await seed();
      const me = { holder: 'r1', until: 1000 };
      expect(ids(await s.claimDue(me, 10, 2))).toEqual(['a', 'b']);
      expect(ids(await s.claimDue(me, 11, 5))).toEqual(['c', 'd']);
      expect(await s.claimDue(me, 12, 5)).toEqual([]);
      expect(await s.claimsByHolder(12)).toEqual({ r1: 4 });
      // settling ends the claim: a trace given back is due again, a failed one when its retry time comes
      await s.startAttempt('a', 13);
      await s.markPending('a', 14);
      await s.markDone('b', [], 14);
      await s.markFailed('c', 'judge:http_500', 14, 500);
      expect(await s.claimsByHolder(15)).toEqual({ r1: 1 });
      expect(ids(await s.claimDue(me, 15, 5))).toEqual(['a']);
      expect(await s.claimDue(me, 499, 5)).toEqual([]);
      // at 1000 the claims have expired (they hold nothing) and the failed entry is due
      expect(ids(await s.claimDue({ holder: 'r2', until: 3000 }, 1000, 5))).toEqual(['a', 'c', 'd']);
      await s.markDead('d', 'x', 1001);
      expect(await s.requeueDead({}, 1002)).toEqual(['d']);
      expect(await s.claimsByHolder(1002)).toEqual({ r2: 2 });
    });

    it('holds every live claim, whoever made it, and hands a lapsed one to the next replica', async () => {
      const s = await seed();
      const other = await ctx.open({ shared: true });
      expect(ids(await s.claimDue({ holder: 'r1', until: 100 }, 10, 2))).toEqual(['a', 'b']);
      expect(ids(await other.claimDue({ holder: 'r2', until: 100 }, 11, 5))).toEqual(['c', 'd']);
      expect(await other.claimDue({ holder: 'r3', until: 100 }, 12, 5)).toEqual([]);
      // r1 dies: its claims lapse while r2 renews its own, and r3 takes r1's traces
      expect(await other.renewClaims({ holder: 'r2', until: 200 }, 50)).toBe(2);
      expect(ids(await other.claimDue({ holder: 'r3', until: 300 }, 100, 5))).toEqual(['a', 'b']);
      expect(await s.claimsByHolder(150)).toEqual({ r2: 2, r3: 2 });
      // past its expiry a claim is not renewed: another replica may already have the trace
      expect(await s.renewClaims({ holder: 'r1', until: 900 }, 160)).toBe(0);
    });

    it("releases a holder's claims on unsettled entries at once, and no one else's", async () => {
      const s = await seed();
      const other = await ctx.open({ shared: true });
      expect(ids(await s.claimDue({ holder: 'r1', until: 1000 }, 10, 3))).toEqual(['a', 'b', 'c']);
      expect(ids(await other.claimDue({ holder: 'r2', until: 1000 }, 11, 5))).toEqual(['d']);
      await s.markDone('a', [], 12);
      expect(await s.releaseClaims('r1')).toBe(2);
      expect(await s.claimsByHolder(13)).toEqual({ r2: 1 });
      expect(ids(await other.claimDue({ holder: 'r3', until: 1000 }, 14, 5))).toEqual(['b', 'c']);
      expect(await s.releaseClaims('r1')).toBe(0);
    });

    it('leaves out entries attempted since a time: a run does not take back what it gave back', async () => {
      const s = await seed();
      await s.claimDue({ holder: 'r1', until: 1000 }, 10, 1);
      await s.startAttempt('a', 20);
      await s.markPending('a', 21);
      expect(ids(await s.claimDue({ holder: 'r1', until: 1000 }, 22, 5, { attemptedBefore: 15 }))).toEqual([
        'b',
        'c',
        'd',
      ]);
      expect(ids(await s.claimDue({ holder: 'r1', until: 1000 }, 23, 5, { attemptedBefore: 30 }))).toEqual(['a']);
    });

    it('never hands one entry to two of several connections claiming at once', async () => {
      const s = await ctx.open({ shared: true });
      for (let i = 0; i < 200; i++) await s.ensureEntry(entry(`t${String(i).padStart(3, '0')}`, i), 0);
      const conns = [s, ...(await Promise.all([1, 2, 3, 4, 5].map(() => ctx.open({ shared: true }))))];
      const got = await Promise.all(
        conns.map(async (c, i) => {
          const mine: string[] = [];
          for (;;) {
            const claimed = await c.claimDue({ holder: `r${i}`, until: 10_000 }, 10, 7);
            if (claimed.length === 0) return mine;
            mine.push(...ids(claimed));
          }
        }),
      );
      const all = got.flat();
      expect(all).toHaveLength(200);
      expect(new Set(all).size).toBe(200);
    });

    it('records a listed page in one call: new entries pending, known ones untouched', async () => {
      const s = await seed();
      await s.markDone('a', ['x'], 5);
      expect(await s.ensureEntries([entry('a', 1), entry('e', 5), entry('f', 6), entry('e', 5)], 7)).toBe(2);
      expect(await s.getEntry('a')).toMatchObject({ status: 'done', scoreIds: ['x'] });
      expect(await s.getEntry('f')).toMatchObject({
        status: 'pending',
        traceTimestamp: 6,
        firstSeenAt: 7,
        attempts: 0,
      });
      expect(await s.ensureEntries([], 8)).toBe(0);
      expect(ids(await s.claimDue({ holder: 'r1', until: 100 }, 9, 10))).toEqual(['b', 'c', 'd', 'e', 'f']);
    });

    it('says who holds a lease until it expires', async () => {
      const s = await ctx.open();
      const holder = { id: 'h1', host: 'elsewhere', pid: 1 };
      expect(await s.leaseHolder('online-tick', 0)).toBeNull();
      await s.acquireLease('online-tick', holder, 100, 0);
      expect(await s.leaseHolder('online-tick', 50)).toEqual({ holder: 'h1', expiresAt: 100 });
      expect(await s.leaseHolder('online-tick', 100)).toBeNull();
      await s.releaseLease('online-tick', holder);
      expect(await s.leaseHolder('online-tick', 50)).toBeNull();
    });
  });
}
