import { LEDGER_STATUSES, type LedgerStatus } from '../types.js';
import type { ReadOnlyState } from './read-only.js';

/** Read-only summaries of the ledger. IDs, codes and counts only, as the ledger itself holds. */

const DAY_MS = 86_400_000;

/**
 * What a day means: `sampled` is the UTC day ragwatch first recorded the trace (a backfill of an old window
 * counts on the day it ran); `trace` is the UTC day of the trace's own timestamp.
 */
export type DayBasis = 'sampled' | 'trace';
export const DAY_BASES: readonly DayBasis[] = ['sampled', 'trace'];

const BASIS_COLUMN: Record<DayBasis, string> = { sampled: 'first_seen_at', trace: 'trace_timestamp' };

export type StatusCounts = Record<LedgerStatus, number>;

export interface DayRow extends StatusCounts {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Entries whose day this is, whatever their status now. */
  sampled: number;
  skippedByReason: Record<string, number>;
}

export interface LedgerTotals extends StatusCounts {
  entries: number;
  skippedByReason: Record<string, number>;
  /** Dead entries by the failure code that exhausted their attempts. */
  deadByError: Record<string, number>;
  /** Failed entries (to be retried) by the code of their last failure. */
  failedByError: Record<string, number>;
}

export interface DeadEntrySummary {
  traceId: string;
  attempts: number;
  /** Failure code (`metric:faithfulness:http_500`, `langfuse:timeout`, ...). */
  lastError: string | null;
  /** When the entry went dead (its last update), ms since epoch. */
  diedAt: number;
  traceTimestamp: number;
}

export function utcDay(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

function zeroCounts(): StatusCounts {
  return Object.fromEntries(LEDGER_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

function emptyDay(day: string): DayRow {
  return { day, sampled: 0, ...zeroCounts(), skippedByReason: {} };
}

/** The `days` UTC days ending with the day of `now`, oldest first, every day present (zeros included). */
export function ledgerByDay(
  state: ReadOnlyState | null,
  options: { now: number; days: number; basis: DayBasis },
): DayRow[] {
  const lastDayStart = Math.floor(options.now / DAY_MS) * DAY_MS;
  const firstDayStart = lastDayStart - (options.days - 1) * DAY_MS;
  const rows = new Map<number, DayRow>();
  for (let t = firstDayStart; t <= lastDayStart; t += DAY_MS) rows.set(t / DAY_MS, emptyDay(utcDay(t)));
  if (!state?.hasTable('ledger')) return [...rows.values()];
  const column = BASIS_COLUMN[options.basis];
  const groups = state.db
    .prepare(
      `SELECT CAST(${column} / ${DAY_MS} AS INTEGER) AS d, status, reason, COUNT(*) AS n FROM ledger
       WHERE ${column} >= ? AND ${column} < ? GROUP BY d, status, reason`,
    )
    .all(firstDayStart, lastDayStart + DAY_MS) as {
    d: number;
    status: LedgerStatus;
    reason: string | null;
    n: number;
  }[];
  for (const g of groups) {
    const row = rows.get(g.d);
    if (!row) continue;
    row.sampled += g.n;
    row[g.status] += g.n;
    if (g.status === 'skipped') {
      const reason = g.reason ?? 'unknown';
      row.skippedByReason[reason] = (row.skippedByReason[reason] ?? 0) + g.n;
    }
  }
  return [...rows.values()];
}

/** Counts over the whole ledger. */
export function ledgerTotals(state: ReadOnlyState | null): LedgerTotals {
  const totals: LedgerTotals = { entries: 0, ...zeroCounts(), skippedByReason: {}, deadByError: {}, failedByError: {} };
  if (!state?.hasTable('ledger')) return totals;
  // Two passes: the status counts come from the status index alone; reasons are read for two statuses only.
  for (const g of state.db.prepare('SELECT status, COUNT(*) AS n FROM ledger GROUP BY status').all() as {
    status: LedgerStatus;
    n: number;
  }[]) {
    totals.entries += g.n;
    totals[g.status] += g.n;
  }
  const reasons = state.db
    .prepare(
      `SELECT status, CASE WHEN status = 'failed' THEN last_error ELSE reason END AS reason, COUNT(*) AS n FROM ledger
       WHERE status IN ('skipped', 'dead', 'failed') GROUP BY 1, 2`,
    )
    .all() as { status: 'skipped' | 'dead' | 'failed'; reason: string | null; n: number }[];
  for (const g of reasons) {
    const into =
      g.status === 'skipped' ? totals.skippedByReason : g.status === 'dead' ? totals.deadByError : totals.failedByError;
    const reason = g.reason ?? 'unknown';
    into[reason] = (into[reason] ?? 0) + g.n;
  }
  return totals;
}

/** Dead entries, most recently dead first; only those dead since `diedSince` when given. */
export function deadEntries(
  state: ReadOnlyState | null,
  options: { diedSince?: number; limit?: number } = {},
): DeadEntrySummary[] {
  if (!state?.hasTable('ledger')) return [];
  const rows = state.db
    .prepare(
      `SELECT trace_id, attempts, last_error, updated_at, trace_timestamp FROM ledger
       WHERE status = 'dead' AND updated_at >= ? ORDER BY updated_at DESC, trace_id LIMIT ?`,
    )
    .all(options.diedSince ?? Number.MIN_SAFE_INTEGER, options.limit ?? -1) as {
    trace_id: string;
    attempts: number;
    last_error: string | null;
    updated_at: number;
    trace_timestamp: number;
  }[];
  return rows.map((r) => ({
    traceId: r.trace_id,
    attempts: r.attempts,
    lastError: r.last_error,
    diedAt: r.updated_at,
    traceTimestamp: r.trace_timestamp,
  }));
}

export interface FailingEntrySummary {
  traceId: string;
  /** Attempts spent so far. */
  attempts: number;
  lastError: string | null;
  /** When it is retried, ms since epoch. */
  nextAttemptAt: number | null;
  traceTimestamp: number;
}

/** Failed entries waiting for their retry, most recently failed first. */
export function failingEntries(state: ReadOnlyState | null, options: { limit?: number } = {}): FailingEntrySummary[] {
  if (!state?.hasTable('ledger')) return [];
  const rows = state.db
    .prepare(
      `SELECT trace_id, attempts, last_error, next_attempt_at, trace_timestamp FROM ledger
       WHERE status = 'failed' ORDER BY updated_at DESC, trace_id LIMIT ?`,
    )
    .all(options.limit ?? -1) as {
    trace_id: string;
    attempts: number;
    last_error: string | null;
    next_attempt_at: number | null;
    trace_timestamp: number;
  }[];
  return rows.map((r) => ({
    traceId: r.trace_id,
    attempts: r.attempts,
    lastError: r.last_error,
    nextAttemptAt: r.next_attempt_at,
    traceTimestamp: r.trace_timestamp,
  }));
}

export function countDead(state: ReadOnlyState | null, diedSince?: number): number {
  if (!state?.hasTable('ledger')) return 0;
  return (
    state.db
      .prepare("SELECT COUNT(*) AS n FROM ledger WHERE status = 'dead' AND updated_at >= ?")
      .get(diedSince ?? Number.MIN_SAFE_INTEGER) as { n: number }
  ).n;
}
