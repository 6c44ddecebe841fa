import { describe, expect, it } from 'vitest';
import { LeaseKeeper, type LeaseLoss } from '../../../src/state/lease-keeper.js';
import { openSqliteState } from '../../../src/state/index.js';
import { ManualTimers } from '../../helpers/manual-timers.js';

const holder = { id: 'h:1:a', host: 'h', pid: 1 };
const other = { id: 'h2:2:b', host: 'h2', pid: 2 };

function setup(ttlMs = 30_000) {
  const state = openSqliteState({ path: ':memory:', isProcessAlive: () => true });
  const timers = new ManualTimers();
  let now = 0;
  const losses: LeaseLoss[] = [];
  const errors: unknown[] = [];
  const keeper = new LeaseKeeper({
    leases: state,
    name: 'online-tick',
    holder,
    ttlMs,
    now: () => now,
    timers,
    onLost: (why) => losses.push(why),
    onRenewError: (err) => errors.push(err),
  });
  return { state, timers, keeper, losses, errors, advance: (ms: number) => (now += ms), at: () => now };
}

describe('LeaseKeeper', () => {
  it('renews every third of the time to live, so the lease never lapses while held', async () => {
    const t = setup();
    expect(await t.state.acquireLease('online-tick', holder, 30_000, 0)).toBe(true);
    t.keeper.start();
    expect(t.timers.scheduled).toEqual([10_000]);
    for (let i = 0; i < 5; i++) {
      t.advance(10_000);
      await t.timers.fire();
    }
    // 50 s after taking a 30 s lease, nobody else can have it.
    expect(await t.state.acquireLease('online-tick', other, 30_000, t.at())).toBe(false);
    expect(t.losses).toEqual([]);
    expect(t.timers.count).toBe(1);
  });

  it('reports a lease taken by another holder once and stops renewing', async () => {
    const t = setup();
    await t.state.acquireLease('online-tick', holder, 30_000, 0);
    t.keeper.start();
    t.advance(40_000);
    expect(await t.state.acquireLease('online-tick', other, 30_000, t.at())).toBe(true);
    await t.timers.fire();
    expect(t.losses).toEqual(['taken']);
    expect(t.keeper.lost).toBe('taken');
    expect(t.timers.count).toBe(0);
    // Releasing after a loss leaves the new holder's lease alone.
    await t.keeper.release();
    expect(await t.state.renewLease('online-tick', other, 30_000, t.at())).toBe(true);
  });

  it('retries a renewal that throws and reports the lease expired once its time is up', async () => {
    const t = setup();
    await t.state.acquireLease('online-tick', holder, 30_000, 0);
    const failing = { ...t.state, renewLease: async () => Promise.reject(new Error('connection refused')) };
    const losses: LeaseLoss[] = [];
    const errors: unknown[] = [];
    const keeper = new LeaseKeeper({
      leases: failing,
      name: 'online-tick',
      holder,
      ttlMs: 30_000,
      now: t.at,
      timers: t.timers,
      onLost: (why) => losses.push(why),
      onRenewError: (err) => errors.push(err),
    }).start();
    t.advance(10_000);
    await t.timers.fire();
    t.advance(10_000);
    await t.timers.fire();
    expect(errors).toHaveLength(2);
    expect(losses).toEqual([]);
    t.advance(10_000);
    await t.timers.fire();
    expect(losses).toEqual(['expired']);
    expect(t.timers.count).toBe(0);
    await keeper.stop();
  });

  it('stops on release and gives the lease back', async () => {
    const t = setup();
    await t.state.acquireLease('online-tick', holder, 30_000, 0);
    t.keeper.start();
    await t.keeper.release();
    expect(t.timers.count).toBe(0);
    expect(await t.state.acquireLease('online-tick', other, 30_000, 1)).toBe(true);
    await t.timers.fire();
    expect(t.losses).toEqual([]);
  });
});
