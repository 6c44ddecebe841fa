import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MIN = 60_000;

/** A state file in a fresh temporary directory; `cleanup` removes both. */
export function tempState(): { dir: string; path: string; open: () => StateStore; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-status-'));
  const path = join(dir, 'state.db');
  return {
    dir,
    path,
    open: () => openSqliteState({ path }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type Outcome =
  | { status: 'pending' }
  | { status: 'done' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; error: string }
  | { status: 'dead'; error: string; attempts?: number };

/**
 * Puts one trace in the ledger the way the online job does: sampled at `sampledAt`, then (at `settledAt`,
 * default the same) taken to its outcome through the StateStore API.
 */
export async function seedTrace(
  state: StateStore,
  traceId: string,
  outcome: Outcome,
  times: { sampledAt: number; traceTimestamp?: number; settledAt?: number },
): Promise<void> {
  const at = times.settledAt ?? times.sampledAt;
  await state.ensureEntry(
    {
      traceId,
      traceTimestamp: times.traceTimestamp ?? times.sampledAt - 10 * MIN,
      environment: 'default',
      traceName: 'rag-answer',
      sampleRate: 0.1,
    },
    times.sampledAt,
  );
  switch (outcome.status) {
    case 'pending':
      return;
    case 'done':
      await state.startAttempt(traceId, at);
      await state.markDone(traceId, [`${traceId}-faithfulness`, `${traceId}-answer-relevancy`], at);
      return;
    case 'skipped':
      await state.startAttempt(traceId, at);
      await state.markSkipped(traceId, outcome.reason, at);
      return;
    case 'failed':
      await state.startAttempt(traceId, at);
      await state.markFailed(traceId, outcome.error, at, at + 5 * MIN);
      return;
    case 'dead':
      for (let i = 0; i < (outcome.attempts ?? 3); i++) await state.startAttempt(traceId, at);
      await state.markDead(traceId, outcome.error, at);
      return;
  }
}
