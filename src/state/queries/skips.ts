import type { DayBasis } from './ledger.js';
import type { ReadOnlyState } from './read-only.js';

/**
 * Skipped traces per trace name over the status window: which apps' traces ragwatch cannot read and why
 * (a rise of `not_rag` for one name after an SDK upgrade). Names come from the ledger, as the apps set them.
 */

export interface TraceNameSkips {
  traceName: string | null;
  /** Entries of this name in the window, whatever their status now. */
  sampled: number;
  skipped: number;
  skippedByReason: Record<string, number>;
}

export interface SkipsByTraceName {
  basis: DayBasis;
  /** Names with at least one skip, most skipped first, at most `limit`. */
  rows: TraceNameSkips[];
  /** The names past the limit, summed; null when none. */
  others: (Omit<TraceNameSkips, 'traceName'> & { names: number }) | null;
}

const DAY_MS = 86_400_000;
const COLUMN: Record<DayBasis, string> = { sampled: 'first_seen_at', trace: 'trace_timestamp' };

export interface SkipsWindow {
  now: number;
  days: number;
  basis: DayBasis;
  /** Names listed one by one (default 20). */
  limit?: number;
}

export function skipsByTraceName(state: ReadOnlyState | null, options: SkipsWindow): SkipsByTraceName {
  const empty: SkipsByTraceName = { basis: options.basis, rows: [], others: null };
  if (!state?.hasTable('ledger')) return empty;
  // The same UTC days as the ledger table of the report.
  const lastDay = Math.floor(options.now / DAY_MS) * DAY_MS;
  const from = lastDay - (options.days - 1) * DAY_MS;
  const column = COLUMN[options.basis];
  const groups = state.db
    .prepare(
      `SELECT trace_name, status, reason, COUNT(*) AS n FROM ledger
       WHERE ${column} >= ? AND ${column} < ? GROUP BY trace_name, status, reason`,
    )
    .all(from, lastDay + DAY_MS) as { trace_name: string | null; status: string; reason: string | null; n: number }[];
  const byName = new Map<string | null, TraceNameSkips>();
  for (const g of groups) {
    const row = byName.get(g.trace_name) ?? { traceName: g.trace_name, sampled: 0, skipped: 0, skippedByReason: {} };
    row.sampled += g.n;
    if (g.status === 'skipped') {
      const reason = g.reason ?? 'unknown';
      row.skipped += g.n;
      row.skippedByReason[reason] = (row.skippedByReason[reason] ?? 0) + g.n;
    }
    byName.set(g.trace_name, row);
  }
  const skipped = [...byName.values()]
    .filter((r) => r.skipped > 0)
    .sort((a, b) => b.skipped - a.skipped || (a.traceName ?? '').localeCompare(b.traceName ?? ''));
  const limit = options.limit ?? 20;
  const rest = skipped.slice(limit);
  if (rest.length === 0) return { ...empty, rows: skipped };
  const others = { names: rest.length, sampled: 0, skipped: 0, skippedByReason: {} as Record<string, number> };
  for (const r of rest) {
    others.sampled += r.sampled;
    others.skipped += r.skipped;
    for (const [reason, n] of Object.entries(r.skippedByReason))
      others.skippedByReason[reason] = (others.skippedByReason[reason] ?? 0) + n;
  }
  return { ...empty, rows: skipped.slice(0, limit), others };
}
