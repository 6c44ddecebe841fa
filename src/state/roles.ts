import type {
  Claim,
  ClaimOptions,
  ExperimentRunRecord,
  JobRun,
  LeaseHolder,
  LedgerEntry,
  LedgerStatus,
  MetaValue,
  NewLedgerEntry,
  StateHealth,
  StoredReport,
} from './types.js';

/**
 * The state store by role. Each consumer depends on the narrowest role it uses; an opened store (SQLite or
 * PostgreSQL) is all of them at once (`StateStore`). Times are ms since epoch, passed in by the caller.
 */

/** The online job's record of every sampled trace: one entry per trace through pending → done / skipped / dead. */
export interface Ledger {
  getEntry(traceId: string): Promise<LedgerEntry | null>;
  /** Inserts a `pending` entry unless the trace is already known; returns the entry as stored. */
  ensureEntry(entry: NewLedgerEntry, now: number): Promise<LedgerEntry>;
  /**
   * Records the entries not in the ledger yet as pending, in one transaction (one round trip on PostgreSQL); known
   * ones are left as they are. Returns how many were new. What the listing records a page at a time.
   */
  ensureEntries(entries: readonly NewLedgerEntry[], now: number): Promise<number>;
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
  /**
   * Dead entries back to `pending` (attempts reset, due now) so the next tick takes them; only those that
   * went dead at or after `diedSince` when given. Returns the trace ids re-queued.
   */
  requeueDead(options: { diedSince?: number }, now: number): Promise<string[]>;
  /**
   * Claims up to `limit` due entries (as `dueEntries`) that no live claim holds, oldest trace first, for
   * `claim.holder` until `claim.until`. Settling an entry (done, skipped, failed, dead, back to pending, re-queued)
   * ends its claim. Replicas claiming at once never get the same entry. On a store one host uses (`shared`
   * false) one lease holder evaluates at a time, so another holder's claim is a leftover of a process that
   * died and does not hold.
   */
  claimDue(claim: Claim, now: number, limit: number, options?: ClaimOptions): Promise<LedgerEntry[]>;
  /** Extends the holder's live claims (on unsettled entries) to `claim.until`; returns how many. */
  renewClaims(claim: Claim, now: number): Promise<number>;
  /**
   * Ends the holder's claims on unsettled entries, live or not, so they are due for anyone at once; returns how
   * many. A run calls it when no trace of the holder's is in flight (a run that could not record a settled or
   * started trace, a connection cut, leaves claims that would otherwise hold until they expire).
   */
  releaseClaims(holder: string): Promise<number>;
  /** Entries claimed and not settled yet, by holder (live claims only): what each replica is evaluating. */
  claimsByHolder(now: number): Promise<Record<string, number>>;
}

/** Named leases that keep two runs of one job apart (see `LeaseKeeper` for holding one through a run). */
export interface Leases {
  /** Takes the named lease if free, expired, already ours, or held by a dead process on this host. */
  acquireLease(name: string, holder: LeaseHolder, ttlMs: number, now: number): Promise<boolean>;
  /** Extends a lease we hold; false if it was lost. */
  renewLease(name: string, holder: LeaseHolder, ttlMs: number, now: number): Promise<boolean>;
  releaseLease(name: string, holder: LeaseHolder): Promise<void>;
  /** Who holds the named lease and until when; null when it is free or has expired. */
  leaseHolder(name: string, now: number): Promise<{ holder: string; expiresAt: number } | null>;
}

/** Per job: where its window stands (the cursor) and when it last started, finished and succeeded. */
export interface JobRuns {
  getCursor(job: string): Promise<number | null>;
  setCursor(job: string, position: number, now: number): Promise<void>;
  getJobRun(job: string): Promise<JobRun | null>;
  recordJobStart(job: string, now: number): Promise<void>;
  recordJobFinish(job: string, outcome: string, succeeded: boolean, now: number): Promise<void>;
}

/** The weekly experiment's own record of its runs: means and per-item values, never item text. */
export interface ExperimentHistory {
  /** The record of a finished run (replaces a run of the same dataset and name). */
  recordExperimentRun(run: ExperimentRunRecord): Promise<void>;
  /** Runs of a dataset, newest first, without their per-item values. */
  listExperimentRuns(dataset: string, limit: number): Promise<ExperimentRunRecord[]>;
  /** metric → dataset item ID → value of one recorded run. */
  getExperimentItemValues(dataset: string, runName: string): Promise<Record<string, Record<string, number>>>;
}

/**
 * The weekly reports' rendered files, kept where every replica reads them (PostgreSQL state) so that `/reports/`
 * on any replica serves every report, after a rollout too. The golden set's text as the judge saw it (anonymized),
 * never a production trace's.
 */
export interface ReportArchive {
  /** Keeps a report's files (replacing a report of the same run). */
  putReport(report: StoredReport): Promise<void>;
  /** One file of a report, or null. */
  getReportFile(runDir: string, file: string): Promise<string | null>;
  /** The reports kept, newest first. */
  listReports(): Promise<Array<{ runDir: string; createdAt: number }>>;
  /** Drops the reports created before `before` (retention); returns how many. */
  pruneReports(before: number): Promise<number>;
}

/** Small facts: key/value meta (IDs, codes, versions; never text from a trace) and the last score gauges. */
export interface StateFacts {
  getMeta(key: string): Promise<MetaValue | null>;
  setMeta(key: string, value: string, now: number): Promise<void>;
  getGauges(): Promise<Record<string, number>>;
  setGauges(values: Record<string, number>, now: number): Promise<void>;
}

/** The store itself: where it lives, whether it can be trusted with the next write, closing it. */
export interface StateConnection {
  /** Where the state lives, for messages (a file path for SQLite, a masked URL for PostgreSQL). */
  readonly location: string;
  /**
   * Whether replicas on several hosts share this store (PostgreSQL): they then all claim and evaluate pending
   * traces while one at a time lists. False for SQLite, one host's file: only the lease holder works.
   */
  readonly shared: boolean;
  /** Cheap round trip for readiness probes. */
  ping(): Promise<boolean>;
  /**
   * Whether the store can be trusted with the next write: open, reachable, (SQLite) still the file at its
   * path, and its last write went through (not a full disk). For readiness and before each run.
   */
  health(): Promise<StateHealth>;
  close(): Promise<void>;
}

export interface StateStore
  extends Ledger, Leases, JobRuns, ExperimentHistory, ReportArchive, StateFacts, StateConnection {}

/** The method names of each role: what a backend implements and what the store composes. */
export const ROLE_METHODS = {
  ledger: [
    'getEntry',
    'ensureEntry',
    'ensureEntries',
    'startAttempt',
    'markDone',
    'markSkipped',
    'markFailed',
    'markDead',
    'markPending',
    'dueEntries',
    'earliestPendingTimestamp',
    'countByStatus',
    'listByStatus',
    'attemptsSince',
    'requeueDead',
    'claimDue',
    'renewClaims',
    'releaseClaims',
    'claimsByHolder',
  ],
  leases: ['acquireLease', 'renewLease', 'releaseLease', 'leaseHolder'],
  jobRuns: ['getCursor', 'setCursor', 'getJobRun', 'recordJobStart', 'recordJobFinish'],
  history: ['recordExperimentRun', 'listExperimentRuns', 'getExperimentItemValues'],
  reports: ['putReport', 'getReportFile', 'listReports', 'pruneReports'],
  facts: ['getMeta', 'setMeta', 'getGauges', 'setGauges'],
} as const satisfies {
  ledger: readonly (keyof Ledger)[];
  leases: readonly (keyof Leases)[];
  jobRuns: readonly (keyof JobRuns)[];
  history: readonly (keyof ExperimentHistory)[];
  reports: readonly (keyof ReportArchive)[];
  facts: readonly (keyof StateFacts)[];
};

/** Methods that write: a failure of one is remembered for `health()` until a write goes through again. */
export const WRITE_METHODS: ReadonlySet<string> = new Set([
  'setCursor',
  'ensureEntry',
  'ensureEntries',
  'startAttempt',
  'markDone',
  'markSkipped',
  'markFailed',
  'markDead',
  'markPending',
  'recordJobStart',
  'recordJobFinish',
  'acquireLease',
  'renewLease',
  'releaseLease',
  'recordExperimentRun',
  'requeueDead',
  'claimDue',
  'renewClaims',
  'releaseClaims',
  'setMeta',
  'setGauges',
  'putReport',
  'pruneReports',
]);
