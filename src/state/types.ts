import type { StateError } from './errors.js';

/**
 * What ragwatch remembers between ticks and across restarts. IDs, codes, numbers and times only: no question,
 * answer, context or any other text taken from a trace is ever stored.
 */

export const LEDGER_STATUSES = ['pending', 'done', 'skipped', 'failed', 'dead'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

export interface LedgerEntry {
  traceId: string;
  status: LedgerStatus;
  /** Skip reason (`not_rag_no_contexts`, `pii_residual`, ...) or, for `dead`, the failure that exhausted the attempts. */
  reason: string | null;
  /** Evaluation attempts started (a crash mid-attempt counts). */
  attempts: number;
  /** Error code of the last failed attempt (`judge:http_500`, `langfuse:timeout`, ...): never free text from a trace. */
  lastError: string | null;
  /** Deterministic IDs of the scores written for this trace. */
  scoreIds: string[];
  /** The trace's own timestamp (ms since epoch): orders retries and holds the cursor back. */
  traceTimestamp: number;
  /** The trace's environment, kept so retries write scores with it. */
  environment: string | null;
  /** Trace name, used for per-name sampling rates and metrics (not personal data: it names the pipeline). */
  traceName: string | null;
  sampleRate: number;
  firstSeenAt: number;
  updatedAt: number;
  lastAttemptAt: number | null;
  /** When a failed entry may be retried. */
  nextAttemptAt: number | null;
}

export interface NewLedgerEntry {
  traceId: string;
  traceTimestamp: number;
  environment: string | null;
  traceName: string | null;
  sampleRate: number;
}

export interface JobRun {
  job: string;
  lastStartAt: number | null;
  lastSuccessAt: number | null;
  lastFinishAt: number | null;
  /** `success`, `failed`, `incomplete`, `skipped_lease`, ... */
  lastOutcome: string | null;
}

/** One golden-set experiment run as ragwatch remembers it: IDs and numbers, never item text. */
export interface ExperimentRunRecord {
  dataset: string;
  runName: string;
  /** Langfuse's dataset run (v3) or experiment (v4) id. */
  datasetRunId: string | null;
  startedAt: number;
  finishedAt: number;
  /** `all`, `dev` or `test`. */
  split: string;
  gatePassed: boolean;
  /** metric → mean over the run's items (null: no scored item). */
  means: Record<string, number | null>;
  /** metric → dataset item ID → value; empty in listings. */
  perItem: Record<string, Record<string, number>>;
}

export interface LeaseHolder {
  /** Unique per process (host, pid and a random part). */
  id: string;
  host: string;
  pid: number;
}

/** A small fact about the deployment, kept with the time it was last written. */
export interface MetaValue {
  value: string;
  updatedAt: number;
}

export type StateHealth = { ok: true } | { ok: false; problem: StateError };

export interface StateStore {
  /** Where the state lives, for messages (a file path for SQLite). */
  readonly location: string;

  getCursor(job: string): Promise<number | null>;
  setCursor(job: string, position: number, now: number): Promise<void>;

  getEntry(traceId: string): Promise<LedgerEntry | null>;
  /** Inserts a `pending` entry unless the trace is already known; returns the entry as stored. */
  ensureEntry(entry: NewLedgerEntry, now: number): Promise<LedgerEntry>;
  /** Counts one more attempt and records it against the hourly cap. */
  startAttempt(traceId: string, now: number): Promise<LedgerEntry>;
  markDone(traceId: string, scoreIds: string[], now: number): Promise<void>;
  markSkipped(traceId: string, reason: string, now: number): Promise<void>;
  markFailed(traceId: string, error: string, now: number, nextAttemptAt: number): Promise<void>;
  markDead(traceId: string, error: string, now: number): Promise<void>;
  /** Back to `pending`, and the attempt not charged: abandoned at shutdown, or lost to an outage. */
  markPending(traceId: string, now: number): Promise<void>;
  /** Pending entries, and failed ones whose retry time has come, oldest trace first. */
  dueEntries(now: number, limit: number): Promise<LedgerEntry[]>;
  earliestPendingTimestamp(): Promise<number | null>;
  countByStatus(): Promise<Record<LedgerStatus, number>>;
  /** Entries in a status, oldest first (for operators: `dead` ones above all). */
  listByStatus(status: LedgerStatus, limit: number): Promise<LedgerEntry[]>;
  /** Attempts started since `since` (for the per-hour cap). */
  attemptsSince(since: number): Promise<number>;

  getJobRun(job: string): Promise<JobRun | null>;
  recordJobStart(job: string, now: number): Promise<void>;
  recordJobFinish(job: string, outcome: string, succeeded: boolean, now: number): Promise<void>;

  /** Takes the named lease if free, expired, already ours, or held by a dead process on this host. */
  acquireLease(name: string, holder: LeaseHolder, ttlMs: number, now: number): Promise<boolean>;
  /** Extends a lease we hold; false if it was lost. */
  renewLease(name: string, holder: LeaseHolder, ttlMs: number, now: number): Promise<boolean>;
  releaseLease(name: string, holder: LeaseHolder): Promise<void>;

  /** The weekly experiment's record of a finished run (replaces a run of the same dataset and name). */
  recordExperimentRun(run: ExperimentRunRecord): Promise<void>;
  /** Runs of a dataset, newest first, without their per-item values. */
  listExperimentRuns(dataset: string, limit: number): Promise<ExperimentRunRecord[]>;
  /** metric → dataset item ID → value of one recorded run. */
  getExperimentItemValues(dataset: string, runName: string): Promise<Record<string, Record<string, number>>>;

  /**
   * Dead entries back to `pending` (attempts reset, due now) so the next tick takes them; only those that
   * went dead at or after `diedSince` when given. Returns the trace ids re-queued.
   */
  requeueDead(options: { diedSince?: number }, now: number): Promise<string[]>;

  /** Key/value facts (IDs, codes, versions; never text from a trace). */
  getMeta(key: string): Promise<MetaValue | null>;
  setMeta(key: string, value: string, now: number): Promise<void>;

  getGauges(): Promise<Record<string, number>>;
  setGauges(values: Record<string, number>, now: number): Promise<void>;

  /** Cheap round trip for readiness probes. */
  ping(): Promise<boolean>;
  /**
   * Whether the store can be trusted with the next write: open, still the file at its path (not deleted or
   * replaced under the process), and its last write went through (not a full disk). For readiness and
   * before each run.
   */
  health(): Promise<StateHealth>;
  close(): Promise<void>;
}
