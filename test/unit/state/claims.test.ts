import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteState, type StateStore } from '../../../src/state/index.js';

const entry = (traceId: string, traceTimestamp: number) => ({
  traceId,
  traceTimestamp,
  environment: null,
  traceName: 'rag',
  sampleRate: 1,
});
const ids = (entries: Array<{ traceId: string }>) => entries.map((e) => e.traceId);

let store: StateStore;
beforeEach(async () => {
  store = openSqliteState({ path: ':memory:' });
  for (const [id, ts] of [
    ['c', 3],
    ['a', 1],
    ['b', 2],
    ['d', 4],
  ] as const)
    await store.ensureEntry(entry(id, ts), 0);
});
afterEach(() => store.close());

// The claims every backend honours are in test/state-conformance/claim-cases.ts; this is SQLite's own rule.
describe('ledger claims on one host’s SQLite file', () => {
  it("treats another holder's claim as a dead process's leftover: one lease holder works at a time", async () => {
    expect(store.shared).toBe(false);
    expect(ids(await store.claimDue({ holder: 'crashed', until: 1000 }, 10, 4))).toEqual(['a', 'b', 'c', 'd']);
    // its own live claims still hold: a run never takes one trace twice
    expect(await store.claimDue({ holder: 'crashed', until: 1000 }, 11, 4)).toEqual([]);
    expect(ids(await store.claimDue({ holder: 'restarted', until: 1000 }, 11, 4))).toEqual(['a', 'b', 'c', 'd']);
    expect(await store.claimsByHolder(12)).toEqual({ restarted: 4 });
  });
});
