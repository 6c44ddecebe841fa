import { describe, expect, it } from 'vitest';
import { onlineSettingsFrom } from '../../../src/online/job.js';
import { parseConfig } from '../../helpers/config.js';

describe('online settings from the config', () => {
  it('keeps half again as many traces in flight as the judge has slots', () => {
    expect(onlineSettingsFrom(parseConfig({ judge: { concurrency: 8 } })).concurrency).toBe(12);
    expect(onlineSettingsFrom(parseConfig({ judge: { concurrency: 3 } })).concurrency).toBe(5);
    expect(onlineSettingsFrom(parseConfig({ judge: { concurrency: 8 }, online: { concurrency: 2 } })).concurrency).toBe(
      2,
    );
  });

  it('lets one tick take what the hour leaves unless a per-tick cap is set', () => {
    expect(onlineSettingsFrom(parseConfig({ sampling: { maxPerHour: 1200 } })).caps).toEqual({
      maxPerTick: 1200,
      maxPerHour: 1200,
    });
    expect(onlineSettingsFrom(parseConfig({ sampling: { maxPerTick: 40, maxPerHour: 1200 } })).caps).toEqual({
      maxPerTick: 40,
      maxPerHour: 1200,
    });
  });
});
