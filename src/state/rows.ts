import type { ExperimentRunRecord, JobRun, LedgerEntry, LedgerStatus } from './types.js';

/** Rows as both backends store them (the same columns and types), and the records they become. */

/** A ledger row. */
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

/** An experiment run row. */
export interface RunRow {
  dataset: string;
  run_name: string;
  dataset_run_id: string | null;
  started_at: number;
  finished_at: number;
  split: string;
  gate_passed: number;
  means: string;
}

/** A listed run: its means, without its per-item values. */
export function toRunRecord(row: RunRow): ExperimentRunRecord {
  return {
    dataset: row.dataset,
    runName: row.run_name,
    datasetRunId: row.dataset_run_id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    split: row.split,
    gatePassed: row.gate_passed === 1,
    means: JSON.parse(row.means) as Record<string, number | null>,
    perItem: {},
  };
}

export interface ItemValueRow {
  item_id: string;
  metric: string;
  value: number;
}

/** metric → dataset item ID → value. */
export function toItemValues(rows: Iterable<ItemValueRow>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const row of rows) (out[row.metric] ??= {})[row.item_id] = row.value;
  return out;
}

/** A job run row. */
export interface JobRunRow {
  job: string;
  last_start_at: number | null;
  last_success_at: number | null;
  last_finish_at: number | null;
  last_outcome: string | null;
}

export function toJobRun(row: JobRunRow): JobRun {
  return {
    job: row.job,
    lastStartAt: row.last_start_at,
    lastSuccessAt: row.last_success_at,
    lastFinishAt: row.last_finish_at,
    lastOutcome: row.last_outcome,
  };
}
