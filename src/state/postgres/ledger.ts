import type { Ledger } from '../roles.js';
import { LEDGER_STATUSES, type LedgerStatus } from '../types.js';
import { traceNameKey } from '../../internal/index.js';
import { toEntry, type LedgerRow } from '../rows.js';
import type { Db } from './db.js';

const PRUNE_INTERVAL_MS = 60_000;
/** Settling an entry ends its claim. */
const UNCLAIM = 'claimed_by = NULL, claim_expires_at = NULL';

/**
 * The ledger's SQL on PostgreSQL, all of it here (the replicas' claim beside `due`). Each method
 * is one statement, so one round trip: an attempt is counted and recorded by one statement with a CTE.
 */
export function postgresLedger(db: Db, attemptRetentionMs: number): Ledger {
  let lastPrune = Number.NEGATIVE_INFINITY;
  const rows = async (sql: string, params: unknown[]) => (await db.query<LedgerRow>(sql, params)).rows.map(toEntry);
  return {
    async getEntry(traceId) {
      return (await rows('SELECT * FROM ledger WHERE trace_id = $1', [traceId]))[0] ?? null;
    },
    async ensureEntry(entry, now) {
      const { traceId, traceTimestamp, environment, traceName, sampleRate } = entry;
      // One round trip whether the trace is new or known; nothing is written for a known one.
      const out = await rows(
        `WITH inserted AS (
           INSERT INTO ledger (trace_id, status, trace_timestamp, environment, trace_name, sample_rate, first_seen_at,
             updated_at)
           VALUES ($1, 'pending', $2, $3, $4, $5, $6, $6) ON CONFLICT (trace_id) DO NOTHING RETURNING *
         )
         SELECT * FROM inserted
         UNION ALL SELECT * FROM ledger WHERE trace_id = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
        [traceId, traceTimestamp, environment, traceNameKey(traceName), sampleRate, now],
      );
      // Inserted by another session after this statement's snapshot was taken: read it now.
      const known = out[0] ?? (await rows('SELECT * FROM ledger WHERE trace_id = $1', [traceId]))[0];
      if (!known) throw new Error(`state: no ledger entry for trace ${traceId}`);
      return known;
    },
    async ensureEntries(entries, now) {
      if (entries.length === 0) return 0;
      const r = await db.query(
        `INSERT INTO ledger (trace_id, status, trace_timestamp, environment, trace_name, sample_rate, first_seen_at,
           updated_at)
         SELECT t.id, 'pending', t.ts, t.env, t.name, t.rate, $6, $6
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::float8[]) AS t(id, ts, env, name, rate)
         ON CONFLICT (trace_id) DO NOTHING`,
        [
          entries.map((e) => e.traceId),
          entries.map((e) => e.traceTimestamp),
          entries.map((e) => e.environment),
          entries.map((e) => traceNameKey(e.traceName)),
          entries.map((e) => e.sampleRate),
          now,
        ],
      );
      return r.rowCount ?? 0;
    },
    async startAttempt(traceId, now) {
      const prune = now - lastPrune >= PRUNE_INTERVAL_MS || now < lastPrune;
      const out = await rows(
        `WITH started AS (
           UPDATE ledger SET attempts = attempts + 1, last_attempt_at = $2, updated_at = $2, status = 'pending',
             next_attempt_at = NULL
           WHERE trace_id = $1 RETURNING *
         ), recorded AS (
           INSERT INTO attempts (trace_id, at) SELECT trace_id, $2 FROM started
         ), pruned AS (
           DELETE FROM attempts WHERE $3::boolean AND at < $4 AND EXISTS (SELECT 1 FROM started)
         )
         SELECT * FROM started`,
        [traceId, now, prune, now - attemptRetentionMs],
      );
      if (!out[0]) throw new Error(`state: no ledger entry for trace ${traceId}`);
      if (prune) lastPrune = now;
      return out[0];
    },
    async markDone(traceId, scoreIds, now) {
      await db.query(
        `UPDATE ledger SET status = 'done', reason = NULL, last_error = NULL, score_ids = $1, next_attempt_at = NULL,
           updated_at = $2, ${UNCLAIM}
         WHERE trace_id = $3`,
        [JSON.stringify(scoreIds), now, traceId],
      );
    },
    async markSkipped(traceId, reason, now) {
      await db.query(
        `UPDATE ledger SET status = 'skipped', reason = $1, next_attempt_at = NULL, updated_at = $2, ${UNCLAIM}
         WHERE trace_id = $3`,
        [reason, now, traceId],
      );
    },
    async markFailed(traceId, error, now, nextAttemptAt) {
      await db.query(
        `UPDATE ledger SET status = 'failed', last_error = $1, next_attempt_at = $2, updated_at = $3, ${UNCLAIM}
         WHERE trace_id = $4`,
        [error, nextAttemptAt, now, traceId],
      );
    },
    async markDead(traceId, error, now) {
      await db.query(
        `UPDATE ledger SET status = 'dead', reason = $1, last_error = $1, next_attempt_at = NULL, updated_at = $2, ${UNCLAIM}
         WHERE trace_id = $3`,
        [error, now, traceId],
      );
    },
    async markPending(traceId, now) {
      await db.query(
        `UPDATE ledger SET status = 'pending', attempts = GREATEST(attempts - 1, 0), next_attempt_at = NULL,
           updated_at = $1, ${UNCLAIM}
         WHERE trace_id = $2`,
        [now, traceId],
      );
    },
    async dueEntries(now, limit) {
      return rows(
        `SELECT * FROM ledger WHERE status = 'pending' OR (status = 'failed' AND next_attempt_at <= $1)
         ORDER BY trace_timestamp, trace_id LIMIT $2`,
        [now, limit],
      );
    },
    async earliestPendingTimestamp() {
      const r = await db.query<{ t: number | null }>(
        "SELECT MIN(trace_timestamp) AS t FROM ledger WHERE status = 'pending'",
      );
      return r.rows[0]?.t ?? null;
    },
    async countByStatus() {
      const counts = Object.fromEntries(LEDGER_STATUSES.map((s) => [s, 0])) as Record<LedgerStatus, number>;
      const r = await db.query<{ status: LedgerStatus; n: number }>(
        'SELECT status, COUNT(*) AS n FROM ledger GROUP BY status',
      );
      for (const row of r.rows) counts[row.status] = row.n;
      return counts;
    },
    async listByStatus(status, limit) {
      return rows('SELECT * FROM ledger WHERE status = $1 ORDER BY trace_timestamp, trace_id LIMIT $2', [
        status,
        limit,
      ]);
    },
    async attemptsSince(since) {
      return (await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM attempts WHERE at >= $1', [since])).rows[0]!.n;
    },
    async requeueDead(options, now) {
      const r = await db.query<{ trace_id: string }>(
        `WITH requeued AS (
           UPDATE ledger SET status = 'pending', attempts = 0, reason = NULL, next_attempt_at = $1, updated_at = $1, ${UNCLAIM}
           WHERE status = 'dead' AND updated_at >= $2 RETURNING trace_id, trace_timestamp
         )
         SELECT trace_id FROM requeued ORDER BY trace_timestamp, trace_id`,
        [now, options.diedSince ?? Number.MIN_SAFE_INTEGER],
      );
      return r.rows.map((row) => row.trace_id);
    },
    async claimDue(claim, now, limit, options = {}) {
      if (limit < 1) return [];
      // SKIP LOCKED: replicas claiming at once each lock different rows instead of waiting on one another; the
      // row lock re-checks the conditions on the latest version, so a claim committed meanwhile is seen.
      const claimed = await rows(
        `WITH picked AS (
           SELECT trace_id FROM ledger
           WHERE (status = 'pending' OR (status = 'failed' AND next_attempt_at <= $1))
             AND (claimed_by IS NULL OR claim_expires_at <= $1)
             AND (last_attempt_at IS NULL OR last_attempt_at < $5)
           ORDER BY trace_timestamp, trace_id LIMIT $4
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ledger AS l SET claimed_by = $2, claim_expires_at = $3 FROM picked
         WHERE l.trace_id = picked.trace_id RETURNING l.*`,
        [now, claim.holder, claim.until, limit, options.attemptedBefore ?? Number.MAX_SAFE_INTEGER],
      );
      return claimed.sort((a, b) => a.traceTimestamp - b.traceTimestamp || (a.traceId < b.traceId ? -1 : 1));
    },
    async renewClaims(claim, now) {
      const r = await db.query(
        `UPDATE ledger SET claim_expires_at = $1
         WHERE claimed_by = $2 AND claim_expires_at > $3 AND status IN ('pending', 'failed')`,
        [claim.until, claim.holder, now],
      );
      return r.rowCount ?? 0;
    },
    async releaseClaims(holder) {
      const r = await db.query(
        `UPDATE ledger SET ${UNCLAIM} WHERE claimed_by = $1 AND status IN ('pending', 'failed')`,
        [holder],
      );
      return r.rowCount ?? 0;
    },
    async claimsByHolder(now) {
      const r = await db.query<{ holder: string; n: number }>(
        `SELECT claimed_by AS holder, COUNT(*) AS n FROM ledger
         WHERE claimed_by IS NOT NULL AND claim_expires_at > $1 AND status IN ('pending', 'failed')
         GROUP BY claimed_by`,
        [now],
      );
      return Object.fromEntries(r.rows.map((row) => [row.holder, row.n]));
    },
  };
}
