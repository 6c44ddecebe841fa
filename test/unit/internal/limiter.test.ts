import { describe, expect, it } from 'vitest';
import { Limiter as Semaphore } from '../../../src/internal/index.js';

describe('Semaphore', () => {
  it('admits at most `limit` holders, then the waiters in order', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const r1 = await s.acquire();
    const r2 = await s.acquire();
    const w3 = s.acquire().then((r) => (order.push(3), r));
    const w4 = s.acquire().then((r) => (order.push(4), r));
    expect(s.active).toBe(2);
    expect(s.waiting).toBe(2);
    r1();
    r1();
    const r3 = await w3;
    expect(s.active).toBe(2);
    r2();
    const r4 = await w4;
    expect(order).toEqual([3, 4]);
    r3();
    r4();
    expect(s.active).toBe(0);
  });

  it('drops a waiter whose signal aborts', async () => {
    const s = new Semaphore(1);
    const release = await s.acquire();
    const controller = new AbortController();
    const waiting = s.acquire(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(s.waiting).toBe(0);
    release();
    expect(s.active).toBe(0);
  });

  it('serves waiters by priority, highest first, in arrival order among equals', async () => {
    const s = new Semaphore(1);
    const order: string[] = [];
    const holder = await s.acquire();
    const waits = [
      ['short', 10],
      ['long', 900],
      ['mid-a', 300],
      ['mid-b', 300],
      ['default', 0],
    ].map(([name, priority]) =>
      s.acquire(undefined, priority as number).then((release) => {
        order.push(name as string);
        release();
      }),
    );
    holder();
    await Promise.all(waits);
    expect(order).toEqual(['long', 'mid-a', 'mid-b', 'short', 'default']);
  });

  it('skips an aborted high-priority waiter', async () => {
    const s = new Semaphore(1);
    const holder = await s.acquire();
    const controller = new AbortController();
    const high = s.acquire(controller.signal, 100);
    const low = s.acquire(undefined, 1);
    controller.abort(new Error('gone'));
    await expect(high).rejects.toThrow('gone');
    holder();
    (await low)();
    expect(s.active).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
