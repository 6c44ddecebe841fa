import type { MetricName } from '../metrics/index.js';
import type { Logger } from '../runtime/index.js';
import type { LeaseTimers, JobRuns, Leases, Ledger, StateConnection, StateFacts, LeaseHolder } from '../state/index.js';
import type { EvaluateDeps, ScoredValue } from './evaluate-trace.js';
import type { Probes } from './outage.js';
import type { Clock, OnlineRecorder } from './ports.js';
import type { ReadBackSettings } from './read-back.js';
import type { SamplingPolicy } from './sampler.js';
import type { WindowSettings } from './window.js';

/** Types shared by the online job (`job.ts`) and the engine of one run (`tick-run.ts`). */

export interface OnlineSettings {
  window: WindowSettings;
  sampling: SamplingPolicy;
  caps: { maxPerTick: number; maxPerHour: number };
  maxAttempts: number;
  retryBackoffSeconds: number;
  concurrency: number;
  leaseSeconds: number;
  readBack: ReadBackSettings;
}

/** The state roles an online run uses. */
export type OnlineState = Ledger & Leases & JobRuns & StateFacts & Pick<StateConnection, 'health' | 'shared'>;

export interface OnlineJobDeps extends EvaluateDeps {
  state: OnlineState;
  clock: Clock;
  logger: Logger;
  holder: LeaseHolder;
  /** Timers the lease keeper renews the run's lease with (tests pass fake ones). */
  timers?: LeaseTimers;
  recorder?: OnlineRecorder;
  probes?: Probes;
  /** Waits between looks at the ledger while another replica lists (default: a timer). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface TickOptions {
  /** Soft stop: take no new traces, let the ones in flight finish. */
  stop?: AbortSignal;
  /** Hard stop: abandon in-flight work (it stays pending and is retried). */
  signal?: AbortSignal;
  /** Sees the run go (`sample --once` and backfills show it on stderr). */
  progress?: RunProgress;
}

/** A run's progress: traces taken as the listing goes on, each one settled, the listing's end. */
export interface RunProgress {
  listed(count: number): void;
  taken(): void;
  settled(): void;
  /** Nothing more will be taken. */
  listingDone(): void;
}

/** What happened to one trace this tick. */
export interface TraceReport {
  traceId: string;
  status: 'done' | 'skipped' | 'failed' | 'dead' | 'pending';
  /** Skip reason or failure code (`langfuse:score_unconfirmed`: scored, but the score did not appear in Langfuse). */
  reason?: string;
  scores: ScoredValue[];
  notScorable: MetricName[];
  attempts: number;
}

/**
 * `success`: the window was handled. `failed`: handled, but every trace taken failed and none was evaluated
 * (each is retried; a job that only fails is no success). `incomplete`: a dependency failed and the run
 * stopped, charging nothing. `stopped`: asked to stop. `lease_held`/`lease_lost`: another replica runs ticks.
 */
export type TickOutcome = 'success' | 'failed' | 'incomplete' | 'stopped' | 'lease_held' | 'lease_lost';

export interface TickReport {
  outcome: TickOutcome;
  window: { from: string; to: string } | null;
  /** More settled time remains beyond a capped window. */
  more: boolean;
  listed: number;
  /**
   * Traces the listing dropped for an excluded tag (`online.filters.excludeTags`: by default the weekly
   * experiment's own traffic), not counted in `listed`; each also counts as a skip (`excluded_tag`).
   */
  excluded: number;
  sampled: number;
  taken: number;
  deferred: number;
  evaluated: number;
  skipped: Record<string, number>;
  failed: number;
  dead: number;
  scoresWritten: number;
  /** Scores read back after the run (a sample), and those of them that did not appear in Langfuse within the bound. */
  scoresReadBack: number;
  scoresUnconfirmed: number;
  means: Partial<Record<MetricName, number>>;
  /** Code of the failure that ended the tick early (dependency down, listing failed). */
  error?: string;
  traces: TraceReport[];
}
