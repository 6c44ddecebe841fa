import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatStatus, jobCatalogue } from '../../../src/commands/status.js';
import { openStateReadOnly, type ReadOnlyState } from '../../../src/state/queries/read-only.js';
import { skipsByTraceName } from '../../../src/state/queries/skips.js';
import { buildStatusReport } from '../../../src/state/queries/status-report.js';
import type { StateStore } from '../../../src/state/types.js';
import { DAY, HOUR, MIN, tempState } from './helpers.js';
import { parseConfig } from '../../helpers/config.js';

const NOW = Date.parse('2025-06-07T15:30:00Z');

let tmp: ReturnType<typeof tempState>;
let store: StateStore;
let ro: ReadOnlyState | null = null;
beforeEach(() => {
  tmp = tempState();
  store = tmp.open();
});
afterEach(async () => {
  ro?.close();
  ro = null;
  await store.close();
  tmp.cleanup();
});

let n = 0;
async function sample(traceName: string | null, outcome: 'done' | string, sampledAt: number) {
  const traceId = `t${n++}`;
  await store.ensureEntry(
    { traceId, traceTimestamp: sampledAt - 5 * MIN, environment: 'default', traceName, sampleRate: 0.1 },
    sampledAt,
  );
  await store.startAttempt(traceId, sampledAt);
  if (outcome === 'done') await store.markDone(traceId, [], sampledAt);
  else await store.markSkipped(traceId, outcome, sampledAt);
}

function readOnly(): ReadOnlyState {
  ro?.close();
  ro = openStateReadOnly(tmp.path);
  if (!ro) throw new Error('the state file should exist');
  return ro;
}

describe('skips by trace name', () => {
  beforeEach(async () => {
    for (let i = 0; i < 6; i++) await sample('support-chat', i < 4 ? 'not_rag' : 'done', NOW - HOUR - i * MIN);
    await sample('support-chat', 'no_answer', NOW - 2 * HOUR);
    for (let i = 0; i < 3; i++) await sample('small-talk', 'not_rag', NOW - 3 * HOUR);
    await sample(null, 'pii_residual', NOW - 3 * HOUR);
    await sample('orders', 'done', NOW - 3 * HOUR);
    // Outside a 2-day window:
    await sample('old-app', 'not_rag', NOW - 5 * DAY);
  });

  it('counts sampled and skipped traces per name and reason in the window, most skipped first', () => {
    expect(skipsByTraceName(readOnly(), { now: NOW, days: 2, basis: 'sampled' })).toEqual({
      basis: 'sampled',
      rows: [
        { traceName: 'support-chat', sampled: 7, skipped: 5, skippedByReason: { not_rag: 4, no_answer: 1 } },
        { traceName: 'small-talk', sampled: 3, skipped: 3, skippedByReason: { not_rag: 3 } },
        { traceName: null, sampled: 1, skipped: 1, skippedByReason: { pii_residual: 1 } },
      ],
      others: null,
    });
    expect(
      skipsByTraceName(readOnly(), { now: NOW, days: 7, basis: 'sampled' }).rows.map((r) => r.traceName),
    ).toContain('old-app');
  });

  it('sums the names past the limit', () => {
    expect(skipsByTraceName(readOnly(), { now: NOW, days: 2, basis: 'sampled', limit: 1 }).others).toEqual({
      names: 2,
      sampled: 4,
      skipped: 4,
      skippedByReason: { not_rag: 3, pii_residual: 1 },
    });
    expect(skipsByTraceName(null, { now: NOW, days: 2, basis: 'trace' })).toEqual({
      basis: 'trace',
      rows: [],
      others: null,
    });
  });

  it('shows in ragwatch status as a table with the share skipped', () => {
    const config = parseConfig({});
    const report = buildStatusReport(readOnly(), {
      path: tmp.path,
      now: NOW,
      days: 2,
      basis: 'sampled',
      timezone: config.timezone,
      jobs: jobCatalogue(config),
      langfuseSetting: 'auto',
    });
    const text = formatStatus(report, NOW);
    expect(text).toMatch(
      /skipped by trace name, same 2 days \(ragwatch extract --trace ID shows why one trace is skipped\)\ntrace name\s+sampled\s+skipped\s+share\s+reasons\n/,
    );
    expect(text).toMatch(/\nsupport-chat\s+7\s+5\s+71%\s+not_rag 4, no_answer 1\n/);
    expect(text).toMatch(/\nsmall-talk\s+3\s+3\s+100%\s+not_rag 3\n/);
    expect(text).toMatch(/\n\(no name\)\s+1\s+1\s+100%\s+pii_residual 1\n/);
  });
});
