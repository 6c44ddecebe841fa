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

/** A replica's hold on the ledger entries it evaluates: its lease-holder id, and until when unless renewed. */
export interface Claim {
  holder: string;
  until: number;
}

export interface ClaimOptions {
  /** Only entries whose last attempt started before this (a run does not take back what it gave back). */
  attemptedBefore?: number;
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

/** One weekly report as the state keeps it for `/reports/`: its run's directory name and its rendered files. */
export interface StoredReport {
  /** The run's directory name (`safeDirName` of the run name): what `/reports/<runDir>/` names. */
  runDir: string;
  /** File name (`report.html`, `report.md`, `report.json`) → content. */
  files: Record<string, string>;
  createdAt: number;
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

export type {
  ExperimentHistory,
  JobRuns,
  Leases,
  Ledger,
  ReportArchive,
  StateConnection,
  StateFacts,
  StateStore,
} from './roles.js';
