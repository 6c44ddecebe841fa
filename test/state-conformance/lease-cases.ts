import { describe, expect, it } from 'vitest';
import type { StateBackend } from './backend.js';
import { freshState } from './context.js';
import { raceForLease } from './processes.js';

const a = { id: 'host1:1:a', host: 'host1', pid: 1 };
const b = { id: 'host1:2:b', host: 'host1', pid: 2 };
const remote = { id: 'host2:3:c', host: 'host2', pid: 3 };

/** Leases: one holder at a time, expiry, renewal, release, dead processes, contention. */
export function leaseCases(backend: StateBackend): void {
  describe(`${backend.name}: leases`, () => {
    const ctx = freshState(backend);

    it('lets one holder in at a time until release or expiry', async () => {
      const s = await ctx.open({ isProcessAlive: () => true });
      expect(await s.acquireLease('online', a, 1000, 0)).toBe(true);
      expect(await s.acquireLease('online', b, 1000, 10)).toBe(false);
      expect(await s.acquireLease('online', a, 1000, 10)).toBe(true);
      expect(await s.renewLease('online', a, 1000, 500)).toBe(true);
      expect(await s.acquireLease('online', remote, 1000, 1400)).toBe(false);
      expect(await s.acquireLease('online', remote, 1000, 1500)).toBe(true);
      expect(await s.renewLease('online', a, 1000, 1600)).toBe(false);
      // Releasing someone else's lease does nothing.
      await s.releaseLease('online', a);
      expect(await s.acquireLease('online', b, 1000, 1700)).toBe(false);
      await s.releaseLease('online', remote);
      expect(await s.acquireLease('online', b, 1000, 1700)).toBe(true);
    });

    it('keeps leases of different names apart', async () => {
      const s = await ctx.open({ isProcessAlive: () => true });
      expect(await s.acquireLease('online-tick', a, 1000, 0)).toBe(true);
      expect(await s.acquireLease('online-backfill', b, 1000, 0)).toBe(true);
      expect(await s.renewLease('online-tick', b, 1000, 1)).toBe(false);
    });

    it('takes over from a dead process on the same host, not from another host', async () => {
      const s = await ctx.open({ isProcessAlive: (pid) => pid !== 1 && pid !== 3 });
      expect(await s.acquireLease('online', a, 60_000, 0)).toBe(true);
      expect(await s.acquireLease('online', b, 60_000, 1)).toBe(true);
      await s.releaseLease('online', b);
      expect(await s.acquireLease('online', remote, 60_000, 2)).toBe(true);
      expect(await s.acquireLease('online', b, 60_000, 3)).toBe(false);
    });

    it('is shared between connections, and only one of several racing connections gets it', async () => {
      const conns = await Promise.all(Array.from({ length: 6 }, () => ctx.open({ isProcessAlive: () => true })));
      const holders = conns.map((_, i) => ({ id: `h:${i}`, host: 'h', pid: 10 + i }));
      const got = await Promise.all(conns.map((c, i) => c.acquireLease('online', holders[i]!, 1000, 0)));
      expect(got.filter(Boolean)).toHaveLength(1);
      const winner = got.indexOf(true);
      // After expiry, again exactly one of them.
      const again = await Promise.all(conns.map((c, i) => c.acquireLease('online', holders[i]!, 1000, 1000)));
      expect(again.filter(Boolean)).toHaveLength(1);
      expect(await conns[winner]!.renewLease('online', holders[winner]!, 1000, 1001)).toBe(
        again.indexOf(true) === winner,
      );
    });

    it('gives the lease to exactly one of several processes racing for it', async () => {
      const { winners, results } = await raceForLease(ctx.instance.processOpener, 4);
      expect(results).toHaveLength(4);
      expect(winners).toHaveLength(1);
      const s = await ctx.open({ isProcessAlive: () => true });
      const holder = { id: `racer-${winners[0]}`, host: 'race-host', pid: 100000 + winners[0]! };
      expect(await s.renewLease('race', holder, 60_000, 2000)).toBe(true);
    }, 60_000);
  });
}
