import { describe, expect, it } from 'vitest';
import { computeWindow, nextCursor } from '../../../src/online/window.js';

const settings = {
  settleDelaySeconds: 600,
  overlapSeconds: 600,
  initialLookbackSeconds: 3600,
  maxWindowSeconds: 6 * 3600,
};
const t = (iso: string) => new Date(iso);

describe('computeWindow', () => {
  it('looks back initialLookback on the first run, up to now − settle', () => {
    const w = computeWindow(settings, null, t('2025-01-01T12:00:00Z'))!;
    expect(w.from.toISOString()).toBe('2025-01-01T10:50:00.000Z');
    expect(w.to.toISOString()).toBe('2025-01-01T11:50:00.000Z');
    expect(w.capped).toBe(false);
  });
  it('starts at cursor − overlap afterwards', () => {
    const w = computeWindow(settings, t('2025-01-01T11:50:00Z'), t('2025-01-01T12:05:00Z'))!;
    expect(w.from.toISOString()).toBe('2025-01-01T11:40:00.000Z');
    expect(w.to.toISOString()).toBe('2025-01-01T11:55:00.000Z');
  });
  it('caps a long gap at maxWindowSeconds and says so', () => {
    const w = computeWindow(settings, t('2025-01-01T00:00:00Z'), t('2025-01-03T00:00:00Z'))!;
    expect(w.from.toISOString()).toBe('2024-12-31T23:50:00.000Z');
    expect(w.to.toISOString()).toBe('2025-01-01T05:50:00.000Z');
    expect(w.capped).toBe(true);
  });
  it('is empty when nothing settled since the cursor', () => {
    expect(
      computeWindow({ ...settings, overlapSeconds: 0 }, t('2025-01-01T11:55:00Z'), t('2025-01-01T12:00:00Z')),
    ).toBeNull();
  });
});

describe('nextCursor', () => {
  const w = { from: t('2025-01-01T10:00:00Z'), to: t('2025-01-01T11:00:00Z'), capped: false };
  it('moves to the end of the window', () => {
    expect(new Date(nextCursor(w, t('2025-01-01T10:10:00Z').getTime())).toISOString()).toBe('2025-01-01T11:00:00.000Z');
    expect(new Date(nextCursor(w, null)).toISOString()).toBe('2025-01-01T11:00:00.000Z');
  });
  it('never goes backwards', () => {
    expect(new Date(nextCursor(w, t('2025-01-01T11:40:00Z').getTime())).toISOString()).toBe('2025-01-01T11:40:00.000Z');
  });
});
