import type { RagwatchConfig } from '../config/schema.js';
import type { MetricName } from '../metrics/types.js';
import type { Logger } from '../service/logger.js';
import type { LeaseHolder, LedgerEntry, StateStore } from '../state/types.js';
import { evaluateTrace, type EvaluateDeps, type ScoredValue, type TraceOutcome } from './evaluate-trace.js';
import { langfuseFailure, type Dependency } from './failures.js';
import { OutageDetector } from './outage.js';
import { TaskPool } from './pool.js';
import { noopRecorder, type Clock, type HealthProbe, type OnlineRecorder, type TraceSummary } from './ports.js';
import { decide, samplingPolicyFrom, TakeBudget, type SamplingPolicy } from './sampler.js';
import { computeWindow, nextCursor, type TickWindow, type WindowSettings } from './window.js';

export const ONLINE_JOB = 'online';
const LEASE = 'online-tick';
const HOUR_MS = 3_600_000;
const MAX_BACKOFF_MS = 24 * HOUR_MS;

export interface OnlineSettings {
  window: WindowSettings;
  sampling: SamplingPolicy;
  caps: { maxPerTick: number; maxPerHour: number };
  maxAttempts: number;
  retryBackoffSeconds: number;
  concurrency: number;
  leaseSeconds: number;
}

export function onlineSettingsFrom(config: RagwatchConfig): OnlineSettings {
  const o = config.online;
  return {
    window: { settleDelaySeconds: o.settleDelaySeconds, overlapSeconds: o.overlapSeconds, initialLookbackSeconds: o.initialLookbackSeconds, maxWindowSeconds: o.maxWindowSeconds },
    sampling: samplingPolicyFrom(config),
    caps: { maxPerTick: config.sampling.maxPerTick, maxPerHour: config.sampling.maxPerHour },
    maxAttempts: o.maxAttempts,
    retryBackoffSeconds: o.retryBackoffSeconds,
    concurrency: o.concurrency,
    leaseSeconds: o.leaseSeconds,
  };
}

export interface OnlineJobDeps extends EvaluateDeps {
  state: StateStore;
  clock: Clock;
  logger: Logger;
  holder: LeaseHolder;
  recorder?: OnlineRecorder;
  probes?: Partial<Record<Dependency, HealthProbe>>;
}

export interface TickOptions {
  /** Soft stop: take no new traces, let the ones in flight finish. */
  stop?: AbortSignal;
  /** Hard stop: abandon in-flight work (it stays pending and is retried). */
  signal?: AbortSignal;
}

/** What happened to one trace this tick. */
export interface TraceReport {
  traceId: string;
  status: 'done' | 'skipped' | 'failed' | 'dead' | 'pending';
  /** Skip reason or failure code. */
  reason?: string;
  scores: ScoredValue[];
  notScorable: MetricName[];
  attempts: number;
}

export type TickOutcome = 'success' | 'incomplete' | 'stopped' | 'lease_held' | 'lease_lost';

export interface TickReport {
  outcome: TickOutcome;
  window: { from: string; to: string } | null;
  /** More settled time remains beyond a capped window. */
  more: boolean;
  listed: number;
  sampled: number;
  taken: number;
  deferred: number;
  evaluated: number;
  skipped: Record<string, number>;
  failed: number;
  dead: number;
  scoresWritten: number;
  means: Partial<Record<MetricName, number>>;
  /** Code of the failure that ended the tick early (dependency down, listing failed). */
  error?: string;
  traces: TraceReport[];
}

function emptyReport(window: TickWindow | null): TickReport {
  return {
    outcome: 'success',
    window: window ? { from: window.from.toISOString(), to: window.to.toISOString() } : null,
    more: window?.capped ?? false,
    listed: 0,
    sampled: 0,
    taken: 0,
    deferred: 0,
    evaluated: 0,
    skipped: {},
    failed: 0,
    dead: 0,
    scoresWritten: 0,
    means: {},
    traces: [],
  };
}

export function retryDelayMs(retryBackoffSeconds: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, retryBackoffSeconds * 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * One online tick: lease → window → list → sample → ledger → evaluate (bounded concurrency) → scores →
 * ledger → cursor → gauges. Safe to kill at any point: the ledger entry is written before a trace is
 * evaluated, score ids are deterministic, and the cursor only moves once the window is fully handled.
 */
export async function runOnlineTick(deps: OnlineJobDeps, settings: OnlineSettings, options: TickOptions = {}): Promise<TickReport> {
  const { state, clock, logger, holder } = deps;
  const recorder = deps.recorder ?? noopRecorder;
  const leaseMs = settings.leaseSeconds * 1000;
  const startedAt = clock.now();
  if (!(await state.acquireLease(LEASE, holder, leaseMs, startedAt))) {
    logger.info({ job: ONLINE_JOB }, 'another replica holds the online tick lease; skipping this tick');
    return { ...emptyReport(null), outcome: 'lease_held' };
  }
  await state.recordJobStart(ONLINE_JOB, startedAt);
  recorder.tickStarted(ONLINE_JOB, startedAt);

  const cursorMs = await state.getCursor(ONLINE_JOB);
  const window = computeWindow(settings.window, cursorMs === null ? null : new Date(cursorMs), new Date(startedAt));
  const report = emptyReport(window);
  const tick = new TickRun(deps, settings, options, report, recorder);
  try {
    // The first run pins where it started, so a first tick that fails does not let the look-back slide.
    if (cursorMs === null && window) await state.setCursor(ONLINE_JOB, window.from.getTime(), startedAt);
    await tick.run(window);
    if (report.outcome === 'success' && window) {
      const earliest = await state.earliestPendingTimestamp();
      const cursor = nextCursor(window, cursorMs === null ? null : new Date(cursorMs), earliest === null ? null : new Date(earliest));
      await state.setCursor(ONLINE_JOB, cursor.getTime(), clock.now());
    }
    if (tick.scoredCount > 0) {
      report.means = tick.means();
      await state.setGauges(gaugeValues(report.means), clock.now());
      recorder.scoreMeans(report.means);
    }
    recorder.ledgerCounts(await state.countByStatus());
  } finally {
    const finishedAt = clock.now();
    const succeeded = report.outcome === 'success';
    await state.recordJobFinish(ONLINE_JOB, report.outcome, succeeded, finishedAt);
    recorder.tickFinished(ONLINE_JOB, report.outcome, succeeded, finishedAt);
    await state.releaseLease(LEASE, holder);
  }
  logger.info(
    {
      job: ONLINE_JOB,
      outcome: report.outcome,
      window: report.window,
      listed: report.listed,
      sampled: report.sampled,
      taken: report.taken,
      deferred: report.deferred,
      evaluated: report.evaluated,
      skipped: report.skipped,
      failed: report.failed,
      dead: report.dead,
      scoresWritten: report.scoresWritten,
      means: report.means,
      ...(report.error ? { error: report.error } : {}),
    },
    'online tick finished',
  );
  return report;
}

/** Gauge names as the alert rules know them: `rag_faithfulness_score`, `rag_answer_relevancy_score`, ... */
export function gaugeName(metric: MetricName): string {
  return `rag_${metric}_score`;
}

function gaugeValues(means: Partial<Record<MetricName, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(means).map(([metric, value]) => [gaugeName(metric as MetricName), value as number]));
}

/** The mutable state of one tick. */
class TickRun {
  private readonly pool: TaskPool;
  private readonly outages: OutageDetector;
  private readonly abort = new AbortController();
  private readonly handled = new Set<string>();
  private readonly sums = new Map<MetricName, { sum: number; n: number }>();
  private stopping = false;
  private lastRenewal: number;
  scoredCount = 0;

  constructor(
    private readonly deps: OnlineJobDeps,
    private readonly settings: OnlineSettings,
    private readonly options: TickOptions,
    private readonly report: TickReport,
    private readonly recorder: OnlineRecorder,
  ) {
    this.pool = new TaskPool(settings.concurrency);
    this.outages = new OutageDetector(deps.probes ?? {}, deps.clock);
    this.lastRenewal = deps.clock.now();
    if (options.signal) {
      if (options.signal.aborted) this.abort.abort(options.signal.reason);
      else options.signal.addEventListener('abort', () => this.abort.abort(options.signal?.reason), { once: true });
    }
  }

  private get shouldStop(): boolean {
    if (!this.stopping && (this.options.stop?.aborted || this.abort.signal.aborted)) {
      this.stopping = true;
      if (this.report.outcome === 'success') this.report.outcome = 'stopped';
    }
    return this.stopping;
  }

  private endEarly(outcome: TickOutcome, error?: string) {
    if (this.report.outcome === 'success') {
      this.report.outcome = outcome;
      if (error) this.report.error = error;
    }
    this.stopping = true;
  }

  async run(window: TickWindow | null): Promise<void> {
    const { state, clock } = this.deps;
    const now = clock.now();
    const budget = TakeBudget.from(this.settings.caps, await state.attemptsSince(now - HOUR_MS));
    try {
      // Retries and traces held back by a cap come first, oldest first.
      for (const entry of await state.dueEntries(now, this.settings.caps.maxPerTick)) {
        if (this.shouldStop) break;
        if (!budget.tryTake()) {
          this.report.deferred += 1;
          this.recorder.traceDeferred();
          continue;
        }
        await this.take(entry);
      }
      if (window && !this.shouldStop) await this.listWindow(window, budget);
    } catch (err) {
      if (!this.abort.signal.aborted) {
        const failure = langfuseFailure(err);
        this.deps.logger.warn({ job: ONLINE_JOB, error: failure.code }, 'listing traces failed; the window is retried on the next tick');
        this.endEarly('incomplete', failure.code);
      } else this.endEarly('stopped');
    } finally {
      await this.pool.drain();
    }
  }

  private async listWindow(window: TickWindow, budget: TakeBudget): Promise<void> {
    const { state, clock, langfuse } = this.deps;
    for await (const summary of langfuse.listTraces({ from: window.from, to: window.to, signal: this.abort.signal })) {
      this.report.listed += 1;
      this.recorder.tracesListed(1);
      if (this.shouldStop) return;
      if ((this.report.listed & 63) === 0 && !(await this.renewLease())) return;
      const decision = decide(this.settings.sampling, summary.id, summary.name);
      if (!decision.sampled) continue;
      this.report.sampled += 1;
      this.recorder.traceSampled();
      if (this.handled.has(summary.id)) continue;
      const entry = await state.ensureEntry(ledgerFields(summary, decision.rate, clock.now()), clock.now());
      // done / skipped / dead are final; failed ones come back through the due list when their time comes.
      if (entry.status !== 'pending') continue;
      if (!budget.tryTake()) {
        this.report.deferred += 1;
        this.recorder.traceDeferred();
        continue;
      }
      await this.take(entry);
    }
  }

  private async take(entry: LedgerEntry): Promise<void> {
    this.handled.add(entry.traceId);
    this.report.taken += 1;
    await this.pool.submit(() => this.process(entry));
  }

  private async renewLease(): Promise<boolean> {
    const { state, clock, holder } = this.deps;
    const now = clock.now();
    const ttl = this.settings.leaseSeconds * 1000;
    if (now - this.lastRenewal < ttl / 3) return true;
    this.lastRenewal = now;
    if (await state.renewLease(LEASE, holder, ttl, now)) return true;
    this.deps.logger.error({ job: ONLINE_JOB }, 'lost the online tick lease to another replica; stopping this tick');
    this.endEarly('lease_lost');
    return false;
  }

  private async process(entry: LedgerEntry): Promise<void> {
    const { state, clock, logger } = this.deps;
    const traceId = entry.traceId;
    let attempts = entry.attempts;
    let outcome: TraceOutcome;
    try {
      attempts = (await state.startAttempt(traceId, clock.now())).attempts;
      outcome = await evaluateTrace(
        this.deps,
        { traceId, traceTimestamp: new Date(entry.traceTimestamp).toISOString(), environment: entry.environment, sampleRate: entry.sampleRate },
        { signal: this.abort.signal },
      );
    } catch (err) {
      // Abandoned (shutdown) or a bug: the trace stays pending and is taken again, its attempt not charged.
      await state.markPending(traceId, clock.now());
      this.addTrace({ traceId, status: 'pending', reason: this.abort.signal.aborted ? 'abandoned' : 'internal_error', scores: [], notScorable: [], attempts });
      if (!this.abort.signal.aborted) logger.error({ traceId, err: err instanceof Error ? err.name : 'error' }, 'unexpected error while evaluating a trace');
      return;
    }
    await this.settle(entry, attempts, outcome);
    await this.renewLease();
  }

  private async settle(entry: LedgerEntry, attempts: number, outcome: TraceOutcome): Promise<void> {
    const { state, clock, logger } = this.deps;
    const traceId = entry.traceId;
    const now = clock.now();
    if (outcome.kind === 'done') {
      await state.markDone(traceId, outcome.scoreIds, now);
      this.report.evaluated += 1;
      this.report.scoresWritten += outcome.scoreIds.length;
      this.recorder.traceEvaluated();
      this.recorder.scoresWritten(outcome.scoreIds.length);
      for (const s of outcome.scored) {
        this.recorder.metricResult(s.metric, 'scored');
        const acc = this.sums.get(s.metric) ?? { sum: 0, n: 0 };
        acc.sum += s.value;
        acc.n += 1;
        this.sums.set(s.metric, acc);
        this.scoredCount += 1;
      }
      for (const m of outcome.notScorable) this.recorder.metricResult(m, 'not_scorable');
      this.addTrace({ traceId, status: 'done', scores: outcome.scored, notScorable: outcome.notScorable, attempts });
      logger.debug({ traceId, scores: outcome.scored.length, notScorable: outcome.notScorable }, 'trace scored');
      return;
    }
    if (outcome.kind === 'skipped') {
      await state.markSkipped(traceId, outcome.reason, now);
      this.report.skipped[outcome.reason] = (this.report.skipped[outcome.reason] ?? 0) + 1;
      this.recorder.traceSkipped(outcome.reason);
      this.addTrace({ traceId, status: 'skipped', reason: outcome.reason, scores: [], notScorable: [], attempts });
      logger.debug({ traceId, reason: outcome.reason }, 'trace skipped');
      return;
    }
    const { failure } = outcome;
    if (failure.code.startsWith('metric:')) this.recorder.metricResult(failure.code.split(':')[1] as MetricName, 'failed');
    if (failure.outageLike && failure.dependency && (await this.outages.isDown(failure.dependency, AbortSignal.any([this.abort.signal, AbortSignal.timeout(60_000)])))) {
      await state.markPending(traceId, now);
      this.addTrace({ traceId, status: 'pending', reason: failure.code, scores: [], notScorable: [], attempts: attempts - 1 });
      if (this.report.outcome === 'success') logger.warn({ job: ONLINE_JOB, dependency: failure.dependency, error: failure.code }, `${failure.dependency} looks unreachable; stopping the tick, nothing is lost`);
      this.endEarly('incomplete', failure.code);
      return;
    }
    this.report.failed += 1;
    this.recorder.traceFailed(failure.code);
    if (attempts >= this.settings.maxAttempts) {
      await state.markDead(traceId, failure.code, now);
      this.report.dead += 1;
      this.recorder.traceDead();
      this.addTrace({ traceId, status: 'dead', reason: failure.code, scores: [], notScorable: [], attempts });
      logger.warn({ traceId, attempts, error: failure.code }, 'trace failed on every attempt and is now dead; it will not be retried');
      return;
    }
    const retryAt = now + retryDelayMs(this.settings.retryBackoffSeconds, attempts);
    await state.markFailed(traceId, failure.code, now, retryAt);
    this.addTrace({ traceId, status: 'failed', reason: failure.code, scores: [], notScorable: [], attempts });
    logger.info({ traceId, attempts, error: failure.code, retryAt: new Date(retryAt).toISOString() }, 'trace evaluation failed; will retry');
  }

  private addTrace(trace: TraceReport) {
    this.report.traces.push(trace);
  }

  means(): Partial<Record<MetricName, number>> {
    const out: Partial<Record<MetricName, number>> = {};
    for (const [metric, { sum, n }] of this.sums) if (n > 0) out[metric] = sum / n;
    return out;
  }
}

function ledgerFields(summary: TraceSummary, rate: number, now: number) {
  const ms = Date.parse(summary.timestamp);
  return {
    traceId: summary.id,
    traceTimestamp: Number.isNaN(ms) ? now : ms,
    environment: summary.environment || null,
    traceName: summary.name,
    sampleRate: rate,
  };
}
