import { describe, expect, it } from 'vitest';
import { isoWeek, uniqueRunName } from '../../../src/experiment/run-name.js';

describe('isoWeek', () => {
  it('follows ISO-8601 across year boundaries', () => {
    expect(isoWeek(new Date('2026-11-23T03:00:00Z'))).toEqual({ year: 2026, week: 48 });
    expect(isoWeek(new Date('2021-01-03T12:00:00Z'))).toEqual({ year: 2020, week: 53 });
    expect(isoWeek(new Date('2024-12-30T00:00:00Z'))).toEqual({ year: 2025, week: 1 });
  });
});

describe('uniqueRunName', () => {
  const now = new Date('2026-11-23T03:00:00Z');
  it('names the first run of a week after the week', () => {
    expect(uniqueRunName('weekly', now, [])).toBe('weekly-2026-W48');
  });
  it('numbers further runs of the same week', () => {
    expect(uniqueRunName('weekly', now, ['weekly-2026-W48'])).toBe('weekly-2026-W48-2');
    expect(uniqueRunName('weekly', now, ['weekly-2026-W48', 'weekly-2026-W48-2'])).toBe('weekly-2026-W48-3');
  });
});
