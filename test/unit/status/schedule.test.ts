import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { localTimeInstants, nextCronRun } from '../../../src/internal/index.js';

const at = (iso: string) => new Date(iso);
const next = (expr: string, tz: string, after: string) => nextCronRun(expr, tz, at(after))?.toISOString() ?? null;

describe('nextCronRun', () => {
  it('finds the next five-minute slot in UTC, strictly after the given instant', () => {
    expect(next('*/5 * * * *', 'UTC', '2025-06-02T12:03:10.250Z')).toBe('2025-06-02T12:05:00.000Z');
    expect(next('*/5 * * * *', 'UTC', '2025-06-02T12:05:00.000Z')).toBe('2025-06-02T12:10:00.000Z');
    expect(next('*/5 * * * *', 'UTC', '2025-06-02T23:59:59.999Z')).toBe('2025-06-03T00:00:00.000Z');
  });

  it('reads the expression in the configured time zone', () => {
    // Monday 03:00 in Madrid is 01:00 UTC in summer, 02:00 UTC in winter
    expect(next('0 3 * * 1', 'Europe/Madrid', '2025-06-02T00:59:59Z')).toBe('2025-06-02T01:00:00.000Z');
    expect(next('0 3 * * 1', 'Europe/Madrid', '2025-06-02T01:00:00Z')).toBe('2025-06-09T01:00:00.000Z');
    expect(next('0 3 * * 1', 'Europe/Madrid', '2025-12-31T12:00:00Z')).toBe('2026-01-05T02:00:00.000Z');
    expect(next('0 9 * * *', 'America/New_York', '2025-01-15T15:00:00Z')).toBe('2025-01-16T14:00:00.000Z');
    expect(next('0 0 * * *', 'Asia/Kolkata', '2025-01-15T00:00:00Z')).toBe('2025-01-15T18:30:00.000Z');
  });

  it('skips a wall-clock time the spring-forward gap removes, and fires in both passes of a repeated hour', () => {
    // 2025-03-30 02:30 does not exist in Madrid
    expect(next('30 2 * * *', 'Europe/Madrid', '2025-03-29T12:00:00Z')).toBe('2025-03-31T00:30:00.000Z');
    // 2025-10-26 02:30 happens twice: 00:30 UTC (CEST) and 01:30 UTC (CET)
    expect(next('30 2 * * *', 'Europe/Madrid', '2025-10-26T00:00:00Z')).toBe('2025-10-26T00:30:00.000Z');
    expect(next('30 2 * * *', 'Europe/Madrid', '2025-10-26T00:30:00Z')).toBe('2025-10-26T01:30:00.000Z');
    expect(next('30 2 * * *', 'Europe/Madrid', '2025-10-26T01:30:00Z')).toBe('2025-10-27T01:30:00.000Z');
  });

  it('handles seconds, names, nicknames, last-day and nth-weekday fields as node-cron does', () => {
    expect(next('*/10 * * * * *', 'UTC', '2025-06-02T12:00:05Z')).toBe('2025-06-02T12:00:10.000Z');
    expect(next('0 8 * * mon-fri', 'UTC', '2025-06-06T09:00:00Z')).toBe('2025-06-09T08:00:00.000Z');
    expect(next('@daily', 'UTC', '2025-06-02T12:00:00Z')).toBe('2025-06-03T00:00:00.000Z');
    expect(next('0 0 L * *', 'UTC', '2024-02-10T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(next('0 12 * * 1#1', 'UTC', '2025-06-03T00:00:00Z')).toBe('2025-07-07T12:00:00.000Z');
    expect(next('0 0 29 2 *', 'UTC', '2025-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('returns null when the expression does not fire within the horizon, and throws on one node-cron rejects', () => {
    expect(nextCronRun('0 0 29 2 *', 'UTC', at('2025-03-01T00:00:00Z'), 365)).toBeNull();
    expect(nextCronRun('0 0 29 2 *', 'UTC', at('2025-03-01T00:00:00Z'), 3 * 366)?.toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    expect(() => nextCronRun('every five minutes', 'UTC', new Date())).toThrow(/invalid cron expression/);
    expect(() => nextCronRun('61 * * * *', 'UTC', new Date())).toThrow(/invalid cron expression/);
  });

  it('agrees with croner’s own next run for the wall clock', () => {
    const cases: Array<[string, string]> = [
      ['*/5 * * * *', 'UTC'],
      ['0 3 * * 1', 'Europe/Madrid'],
      ['15 */2 * * *', 'America/Los_Angeles'],
      ['0 0 1 * *', 'Australia/Lord_Howe'],
      ['30 4 * * 0,6', 'Asia/Kathmandu'],
      ['0 0 L * *', 'Pacific/Chatham'],
      ['*/7 * * * * *', 'Europe/London'],
      ['0 12 13 * 5', 'UTC'],
      ['0 6 * 2 *', 'Europe/Madrid'],
    ];
    for (const [expr, tz] of cases) {
      const task = new Cron(expr, { timezone: tz, paused: true, mode: '5-or-6-parts', domAndDow: true });
      try {
        // both read the wall clock; retry when a firing falls between the two readings
        for (let attempt = 0; attempt < 5; attempt++) {
          const before = nextCronRun(expr, tz, new Date());
          const theirs = task.nextRun();
          const after = nextCronRun(expr, tz, new Date());
          if (before?.getTime() !== after?.getTime()) continue;
          expect(before?.toISOString(), `${expr} in ${tz}`).toBe(theirs?.toISOString());
          break;
        }
      } finally {
        task.stop();
      }
    }
  });
});

describe('localTimeInstants', () => {
  it('names one instant usually, two in a repeated hour and none in a skipped one', () => {
    expect(
      localTimeInstants({ year: 2025, month: 6, day: 2, hour: 12, minute: 0, second: 0 }, 'Europe/Madrid'),
    ).toEqual([Date.parse('2025-06-02T10:00:00Z')]);
    expect(
      localTimeInstants({ year: 2025, month: 10, day: 26, hour: 2, minute: 15, second: 0 }, 'Europe/Madrid'),
    ).toEqual([Date.parse('2025-10-26T00:15:00Z'), Date.parse('2025-10-26T01:15:00Z')]);
    expect(
      localTimeInstants({ year: 2025, month: 3, day: 30, hour: 2, minute: 15, second: 0 }, 'Europe/Madrid'),
    ).toEqual([]);
  });
});
