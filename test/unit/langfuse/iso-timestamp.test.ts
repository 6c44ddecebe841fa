import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../../src/langfuse/core/normalize.js';
import { seededRandom } from '../../../src/random.js';

/** The definition: what Date makes of the text, or the text itself when Date cannot read it. */
const throughDate = (value: string) => {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
};

describe('isoTimestamp', () => {
  it('gives what a Date round trip gives, also for fields Date rolls over', () => {
    const random = seededRandom(5);
    const pick = (n: number, width: number) => String(Math.floor(random() * n)).padStart(width, '0');
    for (let i = 0; i < 20_000; i++) {
      const value = `${pick(10_000, 4)}-${pick(14, 2)}-${pick(33, 2)}T${pick(26, 2)}:${pick(62, 2)}:${pick(62, 2)}.${pick(1000, 3)}Z`;
      expect(isoTimestamp(value), value).toBe(throughDate(value));
    }
    for (const value of [
      '2024-02-29T10:00:00.000Z',
      '2023-02-29T10:00:00.000Z',
      '2025-04-31T00:00:00.000Z',
      '2025-01-01T24:00:00.000Z',
      '2025-03-03T12:00:00Z',
      '2025-03-03T12:00:00.123456Z',
      '2025-03-03T12:00:00.000+01:00',
      '2025-03-03 12:00:00',
      'not a date',
    ]) {
      expect(isoTimestamp(value), value).toBe(throughDate(value));
    }
    expect(isoTimestamp('2023-02-29T10:00:00.000Z')).toBe('2023-03-01T10:00:00.000Z');
    expect(isoTimestamp(undefined)).toBe('1970-01-01T00:00:00.000Z');
  });
});
