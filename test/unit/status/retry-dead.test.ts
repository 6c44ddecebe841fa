import { describe, expect, it } from 'vitest';
import { formatRetryDead, parseSince } from '../../../src/commands/retry-dead.js';
import { CliExit } from '../../../src/exit-codes.js';

const NOW = Date.parse('2025-06-07T12:00:00Z');

describe('retry-dead --since', () => {
  it('reads durations back from now and ISO 8601 times', () => {
    expect(parseSince('24h', NOW)).toBe(NOW - 24 * 3_600_000);
    expect(parseSince('7d', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseSince('30m', NOW)).toBe(NOW - 30 * 60_000);
    expect(parseSince('2w', NOW)).toBe(NOW - 14 * 86_400_000);
    expect(parseSince('90s', NOW)).toBe(NOW - 90_000);
    expect(parseSince('1.5h', NOW)).toBe(NOW - 5_400_000);
    expect(parseSince('2025-06-01T00:00:00Z', NOW)).toBe(Date.parse('2025-06-01T00:00:00Z'));
    expect(parseSince('2025-06-01T02:00:00+02:00', NOW)).toBe(Date.parse('2025-06-01T00:00:00Z'));
    expect(parseSince('2025-06-01', NOW)).toBe(Date.parse('2025-06-01T00:00:00Z'));
  });

  it('refuses anything else with exit code 2', () => {
    for (const bad of ['yesterday', '24', 'h', '-3d', '7 days', '2025-13-40', '']) {
      let caught: unknown;
      try {
        parseSince(bad, NOW);
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(CliExit);
      expect((caught as CliExit).code).toBe(2);
      expect((caught as CliExit).lines[0]).toMatch(/--since must be an ISO 8601 time .* or a duration/);
    }
  });
});

describe('retry-dead output', () => {
  it('says how many and lists the trace ids, at most 50 of them', () => {
    const ids = Array.from({ length: 53 }, (_, i) => `trace-${i}`);
    const text = formatRetryDead({ dryRun: false, since: null, count: 53, traceIds: ids }, null);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('re-queued 53 dead traces: pending with attempts reset; the next online tick takes them');
    expect(lines.slice(1, 51)).toEqual(ids.slice(0, 50).map((id) => `  ${id}`));
    expect(lines[51]).toBe('  … and 3 more (--json lists them all)');
  });

  it('words dry runs, filters, nothing to do and a missing state file', () => {
    expect(formatRetryDead({ dryRun: true, since: '2025-06-06T12:00:00.000Z', count: 1, traceIds: ['a'] }, null)).toBe(
      'dry run: would re-queue 1 dead trace (dead since 2025-06-06 12:00:00Z)\n  a\n',
    );
    expect(formatRetryDead({ dryRun: false, since: null, count: 0, traceIds: [] }, null)).toBe(
      'no dead traces: nothing to re-queue\n',
    );
    expect(formatRetryDead({ dryRun: false, since: '2025-06-06T12:00:00.000Z', count: 0, traceIds: [] }, null)).toBe(
      'no traces went dead since 2025-06-06 12:00:00Z: nothing to re-queue\n',
    );
    expect(formatRetryDead({ dryRun: false, since: null, count: 0, traceIds: [] }, '/srv/state.db')).toBe(
      'nothing to re-queue: /srv/state.db does not exist (no runs yet)\n',
    );
  });
});
