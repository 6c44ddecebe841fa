import type { LedgerEntry, LedgerStatus } from '../types.js';

/** A ledger row as SQLite stores it. */
export interface LedgerRow {
  trace_id: string;
  status: LedgerStatus;
  reason: string | null;
  attempts: number;
  last_error: string | null;
  score_ids: string;
  trace_timestamp: number;
  environment: string | null;
  trace_name: string | null;
  sample_rate: number;
  first_seen_at: number;
  updated_at: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
}

export function toEntry(row: LedgerRow): LedgerEntry {
  return {
    traceId: row.trace_id,
    status: row.status,
    reason: row.reason,
    attempts: row.attempts,
    lastError: row.last_error,
    scoreIds: row.score_ids === '[]' ? [] : (JSON.parse(row.score_ids) as string[]),
    traceTimestamp: row.trace_timestamp,
    environment: row.environment,
    traceName: row.trace_name,
    sampleRate: row.sample_rate,
    firstSeenAt: row.first_seen_at,
    updatedAt: row.updated_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
  };
}
