import type { Database } from 'better-sqlite3';
import type { Ledger } from '../roles.js';
import { LEDGER_STATUSES, type LedgerStatus, type NewLedgerEntry } from '../types.js';
import { traceNameKey } from '../../internal/index.js';
import { toEntry, type LedgerRow } from '../rows.js';

/** Old attempt records only take room (the cap counts the last hour): cleared once a minute, not per attempt. */
const PRUNE_INTERVAL_MS = 60_000;
/** Settling an entry ends its claim. */
const UNCLAIM = 'claimed_by = NULL, claim_expires_at = NULL';

/**
 * The ledger's SQL on SQLite, all of it here. Statements with RETURNING are run with `all()`, never `get()`:
 * `get()` stops at the first row, and an error at commit (SQLITE_FULL) would then be dropped with the row
 * already handed back, for a write that never happened.
 */
export function sqliteLedger(db: Database, attemptRetentionMs: number, shared = false): Ledger {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    getEntry: p('SELECT * FROM ledger WHERE trace_id = ?'),
    insertEntry: p(
      `INSERT INTO ledger (trace_id, status, trace_timestamp, environment, trace_name, sample_rate, first_seen_at,
         updated_at)
       VALUES (?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT (trace_id) DO NOTHING RETURNING *`,
    ),
    startAttempt: p(
      `UPDATE ledger SET attempts = attempts + 1, last_attempt_at = ?, updated_at = ?, status = 'pending',
         next_attempt_at = NULL
       WHERE trace_id = ? RETURNING *`,
    ),
    recordAttempt: p('INSERT INTO attempts (trace_id, at) VALUES (?, ?)'),
    pruneAttempts: p('DELETE FROM attempts WHERE at < ?'),
    markDone: p(
      `UPDATE ledger SET status = 'done', reason = NULL, last_error = NULL, score_ids = ?, next_attempt_at = NULL,
         updated_at = ?, ${UNCLAIM}
       WHERE trace_id = ?`,
    ),
    markSkipped: p(
      `UPDATE ledger SET status = 'skipped', reason = ?, next_attempt_at = NULL, updated_at = ?, ${UNCLAIM}
       WHERE trace_id = ?`,
    ),
    markFailed: p(
      `UPDATE ledger SET status = 'failed', last_error = ?, next_attempt_at = ?, updated_at = ?, ${UNCLAIM}
       WHERE trace_id = ?`,
    ),
    markDead: p(
      `UPDATE ledger SET status = 'dead', reason = ?, last_error = ?, next_attempt_at = NULL, updated_at = ?,
         ${UNCLAIM}
       WHERE trace_id = ?`,
    ),
    markPending: p(
      `UPDATE ledger SET status = 'pending', attempts = MAX(attempts - 1, 0), next_attempt_at = NULL, updated_at = ?,
         ${UNCLAIM}
       WHERE trace_id = ?`,
    ),
    // One statement, so two claims never overlap (SQLite has one writer); RETURNING's order is not defined.
    claimDue: p(
      `UPDATE ledger SET claimed_by = @holder, claim_expires_at = @until WHERE trace_id IN (
         SELECT trace_id FROM ledger WHERE (status = 'pending' OR (status = 'failed' AND next_attempt_at <= @now))
           AND (claimed_by IS NULL OR claim_expires_at <= @now OR (@othersHold = 0 AND claimed_by <> @holder))
           AND (last_attempt_at IS NULL OR last_attempt_at < @attemptedBefore)
         ORDER BY trace_timestamp, trace_id LIMIT @limit)
       RETURNING *`,
    ),
    renewClaims: p(
      `UPDATE ledger SET claim_expires_at = ?
       WHERE claimed_by = ? AND claim_expires_at > ? AND status IN ('pending', 'failed')`,
    ),
    releaseClaims: p(`UPDATE ledger SET ${UNCLAIM} WHERE claimed_by = ? AND status IN ('pending', 'failed')`),
    claimsByHolder: p(
      `SELECT claimed_by AS holder, COUNT(*) AS n FROM ledger
       WHERE claimed_by IS NOT NULL AND claim_expires_at > ? AND status IN ('pending', 'failed') GROUP BY claimed_by`,
    ),
    due: p(
      `SELECT * FROM ledger WHERE status = 'pending' OR (status = 'failed' AND next_attempt_at <= ?)
       ORDER BY trace_timestamp, trace_id LIMIT ?`,
    ),
    earliestPending: p("SELECT MIN(trace_timestamp) AS t FROM ledger WHERE status = 'pending'"),
    countByStatus: p('SELECT status, COUNT(*) AS n FROM ledger GROUP BY status'),
    listByStatus: p('SELECT * FROM ledger WHERE status = ? ORDER BY trace_timestamp, trace_id LIMIT ?'),
    attemptsSince: p('SELECT COUNT(*) AS n FROM attempts WHERE at >= ?'),
    deadSince: p(
      "SELECT trace_id FROM ledger WHERE status = 'dead' AND updated_at >= ? ORDER BY trace_timestamp, trace_id",
    ),
    requeueDead: p(
      `UPDATE ledger SET status = 'pending', attempts = 0, reason = NULL, next_attempt_at = ?, updated_at = ?,
         ${UNCLAIM}
       WHERE status = 'dead' AND updated_at >= ?`,
    ),
  };
  let lastPrune = Number.NEGATIVE_INFINITY;
  // One attempt: counted on the entry and recorded for the hourly cap, in one transaction (built once).
  // One transaction for a listed page: one commit (and one fsync) instead of one per trace.
  const insertEntriesTx = db.transaction((entries: readonly NewLedgerEntry[], now: number): number => {
    let added = 0;
    for (const e of entries) {
      added += (
        stmt.insertEntry.all(
          e.traceId,
          e.traceTimestamp,
          e.environment,
          traceNameKey(e.traceName),
          e.sampleRate,
          now,
          now,
        ) as LedgerRow[]
      ).length;
    }
    return added;
  });
  const insertEntries = (entries: readonly NewLedgerEntry[], now: number): number =>
    insertEntriesTx.immediate(entries, now);
  const startAttemptTx = db.transaction((traceId: string, now: number): LedgerRow => {
    const row = (stmt.startAttempt.all(now, now, traceId) as LedgerRow[])[0];
    if (!row) throw new Error(`state: no ledger entry for trace ${traceId}`);
    stmt.recordAttempt.run(traceId, now);
    if (now - lastPrune >= PRUNE_INTERVAL_MS || now < lastPrune) {
      stmt.pruneAttempts.run(now - attemptRetentionMs);
      lastPrune = now;
    }
    return row;
  });
  const row = (traceId: string) => {
    const r = stmt.getEntry.get(traceId) as LedgerRow | undefined;
    return r ? toEntry(r) : null;
  };

  return {
    async getEntry(traceId) {
      return row(traceId);
    },
    async ensureEntry(entry: NewLedgerEntry, now) {
      const { traceId, traceTimestamp, environment, traceName, sampleRate } = entry;
      const inserted = (
        stmt.insertEntry.all(
          traceId,
          traceTimestamp,
          environment,
          traceNameKey(traceName),
          sampleRate,
          now,
          now,
        ) as LedgerRow[]
      )[0];
      if (inserted) return toEntry(inserted);
      const known = row(traceId);
      if (!known) throw new Error(`state: no ledger entry for trace ${traceId}`);
      return known;
    },
    async ensureEntries(entries, now) {
      return insertEntries(entries, now);
    },
    async startAttempt(traceId, now) {
      return toEntry(startAttemptTx.immediate(traceId, now));
    },
    async markDone(traceId, scoreIds, now) {
      stmt.markDone.run(JSON.stringify(scoreIds), now, traceId);
    },
    async markSkipped(traceId, reason, now) {
      stmt.markSkipped.run(reason, now, traceId);
    },
    async markFailed(traceId, error, now, nextAttemptAt) {
      stmt.markFailed.run(error, nextAttemptAt, now, traceId);
    },
    async markDead(traceId, error, now) {
      stmt.markDead.run(error, error, now, traceId);
    },
    async markPending(traceId, now) {
      stmt.markPending.run(now, traceId);
    },
    async dueEntries(now, limit) {
      return (stmt.due.all(now, limit) as LedgerRow[]).map(toEntry);
    },
    async earliestPendingTimestamp() {
      return (stmt.earliestPending.get() as { t: number | null }).t;
    },
    async countByStatus() {
      const counts = Object.fromEntries(LEDGER_STATUSES.map((s) => [s, 0])) as Record<LedgerStatus, number>;
      for (const r of stmt.countByStatus.all() as { status: LedgerStatus; n: number }[]) counts[r.status] = r.n;
      return counts;
    },
    async listByStatus(status, limit) {
      return (stmt.listByStatus.all(status, limit) as LedgerRow[]).map(toEntry);
    },
    async attemptsSince(since) {
      return (stmt.attemptsSince.get(since) as { n: number }).n;
    },
    async requeueDead(options, now) {
      return db
        .transaction(() => {
          const since = options.diedSince ?? Number.MIN_SAFE_INTEGER;
          // Same condition in one transaction under the write lock: the ids are exactly the rows updated.
          const ids = (stmt.deadSince.all(since) as { trace_id: string }[]).map((r) => r.trace_id);
          stmt.requeueDead.run(now, now, since);
          return ids;
        })
        .immediate();
    },
    async claimDue(claim, now, limit, options = {}) {
      if (limit < 1) return [];
      const attemptedBefore = options.attemptedBefore ?? Number.MAX_SAFE_INTEGER;
      const params = {
        holder: claim.holder,
        until: claim.until,
        now,
        limit,
        attemptedBefore,
        othersHold: shared ? 1 : 0,
      };
      const claimed = stmt.claimDue.all(params) as LedgerRow[];
      claimed.sort((a, b) => a.trace_timestamp - b.trace_timestamp || (a.trace_id < b.trace_id ? -1 : 1));
      return claimed.map(toEntry);
    },
    async renewClaims(claim, now) {
      return stmt.renewClaims.run(claim.until, claim.holder, now).changes;
    },
    async releaseClaims(holder) {
      return stmt.releaseClaims.run(holder).changes;
    },
    async claimsByHolder(now) {
      const out: Record<string, number> = {};
      for (const r of stmt.claimsByHolder.all(now) as { holder: string; n: number }[]) out[r.holder] = r.n;
      return out;
    },
  };
}
