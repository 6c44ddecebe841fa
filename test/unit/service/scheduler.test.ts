import { describe, expect, it } from 'vitest';
import { catchUpDue, cronIntervalMs, Scheduler } from '../../../src/service/scheduler.js';
import { silentLogger } from '../../../src/runtime/logger.js';

describe('catch-up', () => {
  it('is due without a success or when the last one is older than the interval', () => {
    expect(catchUpDue(null, 1000, 300_000)).toBe(true);
    expect(catchUpDue(0, 300_001, 300_000)).toBe(true);
    expect(catchUpDue(0, 299_999, 300_000)).toBe(false);
  });
  it('reads the interval of a cron expression from its next two firings', () => {
    const runs = [new Date('2025-01-01T00:05:00Z'), new Date('2025-01-01T00:10:00Z')];
    expect(cronIntervalMs({ getNextRuns: () => runs })).toBe(300_000);
    expect(cronIntervalMs({ getNextRuns: () => [] })).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('Scheduler', () => {
  it('runs a job at start when it is behind, never twice at once, and again while it asks for more', async () => {
    const scheduler = new Scheduler({ timezone: 'UTC', logger: silentLogger(), now: () => 10 * 60_000 });
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    scheduler.add({
      name: 'online',
      schedule: '*/5 * * * *',
      lastSuccessAt: async () => 0,
      run: async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        runs += 1;
        await gate;
        running -= 1;
        return { more: runs < 3 };
      },
    });
    await scheduler.start();
    expect(scheduler.runningJobs()).toMatchObject([{ job: 'online', reason: 'catch_up' }]);
    const again = scheduler.trigger('online', 'scheduled');
    release();
    await again;
    expect(runs).toBe(3);
    expect(maxRunning).toBe(1);
    expect(scheduler.nextRun('online')).toBeInstanceOf(Date);
    await scheduler.stop();
    await scheduler.trigger('online');
    expect(runs).toBe(3);
  });

  it('does not catch up when the last success is recent, and rejects bad cron expressions', async () => {
    const scheduler = new Scheduler({ timezone: 'Europe/Madrid', logger: silentLogger(), now: () => 60_000 });
    let runs = 0;
    scheduler.add({
      name: 'online',
      schedule: '*/5 * * * *',
      lastSuccessAt: async () => 0,
      run: async () => void (runs += 1),
    });
    expect(() => scheduler.add({ name: 'bad', schedule: 'every five minutes', run: async () => {} })).toThrow(
      /invalid cron/,
    );
    await scheduler.start();
    expect(scheduler.runningJobs()).toEqual([]);
    expect(runs).toBe(0);
    await scheduler.stop();
  });

  it('drains: a soft stop first, then a hard abort at the deadline', async () => {
    const scheduler = new Scheduler({ timezone: 'UTC', logger: silentLogger() });
    const seen: string[] = [];
    scheduler.add({
      name: 'stubborn',
      schedule: '0 3 * * 1',
      run: ({ stop, signal }) =>
        new Promise<void>((resolve) => {
          stop.addEventListener('abort', () => seen.push('stop'));
          signal.addEventListener('abort', () => {
            seen.push('abort');
            resolve();
          });
        }),
    });
    const run = scheduler.trigger('stubborn');
    await scheduler.stop();
    expect(await scheduler.drain(20)).toBe(false);
    await run;
    expect(seen).toEqual(['stop', 'abort']);
  });
});
