import { describe, expect, it } from 'vitest';
import { isOutageKind } from '../../../src/errors.js';
import { OUTAGE_STREAK, OutageWatch } from '../../../src/experiment/outage.js';

const signal = new AbortController().signal;

describe('OutageWatch', () => {
  it('a failing probe means down at the first outage-like failure', async () => {
    let probes = 0;
    const watch = new OutageWatch({ judge: async () => (probes++, false) }, () => 0);
    expect(await watch.failed('judge', signal)).toBe(true);
    expect(probes).toBe(1);
  });

  it('a probe that throws counts as down', async () => {
    const watch = new OutageWatch({ judge: async () => Promise.reject(new Error('ECONNREFUSED')) }, () => 0);
    expect(await watch.failed('judge', signal)).toBe(true);
  });

  it('with the probe up, an item’s failure is its own until the streak of consecutive items is reached', async () => {
    const watch = new OutageWatch({ judge: async () => true }, () => 0);
    for (let i = 1; i < OUTAGE_STREAK; i++) expect(await watch.failed('judge', signal)).toBe(false);
    expect(await watch.failed('judge', signal)).toBe(true);
  });

  it('any answer from the dependency ends the streak', async () => {
    const watch = new OutageWatch({}, () => 0, 3);
    expect(await watch.failed('rag', signal)).toBe(false);
    expect(await watch.failed('rag', signal)).toBe(false);
    watch.answered('rag');
    expect(await watch.failed('rag', signal)).toBe(false);
    expect(await watch.failed('rag', signal)).toBe(false);
    expect(await watch.failed('rag', signal)).toBe(true);
  });

  it('streaks are per dependency', async () => {
    const watch = new OutageWatch({}, () => 0, 2);
    expect(await watch.failed('rag', signal)).toBe(false);
    expect(await watch.failed('judge', signal)).toBe(false);
    expect(await watch.failed('rag', signal)).toBe(true);
  });

  it('caches the probe’s answer briefly and shares one probe between concurrent failures', async () => {
    let now = 0;
    let probes = 0;
    const watch = new OutageWatch({ judge: async () => (probes++, true) }, () => now, 100);
    await Promise.all([watch.failed('judge', signal), watch.failed('judge', signal), watch.failed('judge', signal)]);
    expect(probes).toBe(1);
    now += 10_000;
    await watch.failed('judge', signal);
    expect(probes).toBe(1);
    now += 30_000;
    await watch.failed('judge', signal);
    expect(probes).toBe(2);
  });
});

describe('isOutageKind', () => {
  it.each(['connection', 'timeout', 'http_500', 'http_503', 'http_429', 'rate_limited'])(
    '%s looks like an outage',
    (k) => expect(isOutageKind(k)).toBe(true),
  );
  it.each(['schema_mismatch', 'invalid_json', 'truncated', 'http_400', 'http_404', 'internal', 'aborted'])(
    '%s does not',
    (k) => expect(isOutageKind(k)).toBe(false),
  );
});
