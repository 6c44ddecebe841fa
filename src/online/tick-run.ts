import { setMaxListeners } from 'node:events';
import type { MetricName } from '../metrics/index.js';
import { isStateError, type LedgerEntry } from '../state/index.js';
import { evaluateTrace, type TraceOutcome } from './evaluate-trace.js';
import { langfuseFailure, type Channel, type Failure } from './failures.js';
import { HeldFailures } from './held-failures.js';
import type { OnlineJobDeps, OnlineSettings, TickOptions, TickOutcome, TickReport, TraceReport } from './run-types.js';
import { OutageDetector } from './outage.js';
import { TaskPool } from './pool.js';
import type { OnlineRecorder } from './ports.js';
import { decide } from './sampler.js';
import { sleep as sleepFor } from '../internal/index.js';
import { readBack } from './read-back.js';
import { recordThroughCut } from './record.js';
import type { TickWindow } from './window.js';
import { ledgerFields } from './listing.js';

const HOUR_MS = 3_600_000;
/** Traces failing in a row on one channel, none succeeding between, that make an outage. */
const OUTAGE_STREAK = 3;
const DEPENDENCY_OF: Record<Channel, 'langfuse' | 'judge'> = {
  'langfuse:read': 'langfuse',
  'langfuse:write': 'langfuse',
  judge: 'judge',
};

/** A trace whose failure is not settled yet: charged or refunded once its channel shows what it is doing. */
interface FailedTrace {
  entry: LedgerEntry;
  attempts: number;
  failure: Failure;
}
const MAX_BACKOFF_MS = 24 * HOUR_MS;
/** A trace whose score Langfuse acknowledged and then did not show (see `confirmScores`). */
const UNCONFIRMED = 'langfuse:score_unconfirmed';

export function retryDelayMs(retryBackoffSeconds: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, retryBackoffSeconds * 1000 * 2 ** Math.max(0, attempts - 1));
}

export interface RunMode {
  /** Job name in logs. */
  job: string;
  /** Lease held while the run goes (renewed by a `LeaseKeeper`). */
  lease: string;
}

/** The mutable state of one run over a window: a tick, or a backfill. */
/** Traces scored between two publications of a run's means. */
export const MEANS_EVERY = 200;

export class TickRun {
  private readonly pool: TaskPool;
  private readonly outages: OutageDetector;
  private readonly held: HeldFailures<FailedTrace>;
  private readonly abort = new AbortController();
  private readonly handled = new Set<string>();
  private readonly sums = new Map<MetricName, { sum: number; n: number }>();
  /** The same by metric and the sample's language. */
  private readonly languageSums = new Map<string, Map<string, { sum: number; n: number }>>();
  /** Traces this run scored, with the attempt that scored them: what is read back at the end. */
  private readonly written = new Map<string, { entry: LedgerEntry; attempts: number; scoreIds: string[] }>();
  private stopping = false;
  scoredCount = 0;
  private tracesScored = 0;

  constructor(
    private readonly deps: OnlineJobDeps,
    private readonly settings: OnlineSettings,
    private readonly options: TickOptions,
    private readonly report: TickReport,
    private readonly recorder: OnlineRecorder,
    private readonly mode: RunMode,
    /** Publishes the run's means so far (the score gauges), every MEANS_EVERY scored traces of a long run. */
    private readonly onMeans?: (means: Partial<Record<MetricName, number>>) => Promise<void>,
  ) {
    this.pool = new TaskPool(settings.concurrency);
    this.outages = new OutageDetector(deps.probes ?? {}, deps.clock);
    this.held = new HeldFailures(this.outages, OUTAGE_STREAK);
    // Every request of every trace in flight listens on this one signal.
    setMaxListeners(0, this.abort.signal);
    if (options.signal) {
      if (options.signal.aborted) this.abort.abort(options.signal.reason);
      else options.signal.addEventListener('abort', () => this.abort.abort(options.signal?.reason), { once: true });
    }
  }

  /** True once the run takes nothing new (stopped, or ended early by an outage or a lost lease). */
  get stopped(): boolean {
    return this.shouldStop;
  }

  /** Aborts when the run is abandoned (hard stop): what the run's requests listen on. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get freeSlots(): number {
    return this.pool.free;
  }

  whenSlotFree(): Promise<void> {
    return this.pool.whenFree();
  }

  /** Waits for every trace taken to settle, settles the failures still held, then reads the scores back. */
  async finish(): Promise<void> {
    try {
      await this.pool.drain();
    } finally {
      await this.settleHeld();
    }
    await this.confirmScores();
  }

  private get shouldStop(): boolean {
    if (!this.stopping && (this.options.stop?.aborted || this.abort.signal.aborted)) {
      this.stopping = true;
      if (this.report.outcome === 'success') this.report.outcome = 'stopped';
    }
    return this.stopping;
  }

  endEarly(outcome: TickOutcome, error?: string) {
    if (this.report.outcome === 'success') {
      this.report.outcome = outcome;
      if (error) this.report.error = error;
    }
    this.stopping = true;
  }

  /**
   * A backfill: lists `window` and evaluates every sampled trace in it whatever the ledger says (after a judge
   * change), uncapped. The online tick lists through the ledger instead (`listing.ts`, `claims.ts`).
   */
  async run(window: TickWindow): Promise<void> {
    const { state, clock, langfuse } = this.deps;
    try {
      if (this.shouldStop) return;
      for await (const summary of langfuse.listTraces({
        from: window.from,
        to: window.to,
        signal: this.abort.signal,
        onExcluded: (excluded) => {
          this.report.excluded += 1;
          this.recorder.traceSkipped('excluded_tag', excluded.name);
        },
      })) {
        this.report.listed += 1;
        this.recorder.tracesListed(1);
        this.options.progress?.listed(this.report.listed);
        if (this.shouldStop) break;
        const decision = decide(this.settings.sampling, summary.id, summary.name);
        if (!decision.sampled) continue;
        this.report.sampled += 1;
        this.recorder.traceSampled();
        if (this.handled.has(summary.id)) continue;
        await this.take(await state.ensureEntry(ledgerFields(summary, decision.rate, clock.now()), clock.now()));
      }
      this.options.progress?.listingDone();
    } catch (err) {
      // The state file failing is no listing failure: the run's caller reports it.
      if (isStateError(err)) throw err;
      this.listingFailed(err);
    } finally {
      await this.pool.drain();
      await this.settleHeld();
    }
    await this.confirmScores();
  }

  /** Listing the window failed: the run ends incomplete (stopped, when it was asked to stop). */
  listingFailed(err: unknown): void {
    if (this.abort.signal.aborted) return this.endEarly('stopped');
    const failure = langfuseFailure(err);
    this.deps.logger.warn(
      { job: this.mode.job, error: failure.code },
      'listing traces failed; the window is retried on the next run',
    );
    this.endEarly('incomplete', failure.code);
  }

  /** Starts evaluating `entry` once a slot is free. */
  async take(entry: LedgerEntry): Promise<void> {
    this.handled.add(entry.traceId);
    this.report.taken += 1;
    this.options.progress?.taken();
    await this.pool.submit(() =>
      this.process(entry).catch((err: unknown) => {
        // Nothing can be recorded: take no more traces; the run ends with the state error (see `drain`).
        if (isStateError(err)) this.endEarly('incomplete', err.shortCode);
        throw err;
      }),
    );
  }

  /** The lease keeper lost the run's lease: take nothing more; what is in flight finishes. */
  leaseLost(why: 'taken' | 'expired'): void {
    const cause = why === 'taken' ? 'lost the lease to another replica' : 'could not renew the lease before it expired';
    this.deps.logger.error({ job: this.mode.job, lease: this.mode.lease }, `${cause}; stopping this run`);
    this.endEarly('lease_lost');
  }

  private async process(entry: LedgerEntry): Promise<void> {
    const { state, clock, logger } = this.deps;
    const traceId = entry.traceId;
    let attempts = entry.attempts;
    let outcome: TraceOutcome;
    const reached: Channel[] = [];
    try {
      attempts = (await state.startAttempt(traceId, clock.now())).attempts;
      outcome = await evaluateTrace(
        this.deps,
        {
          traceId,
          traceTimestamp: new Date(entry.traceTimestamp).toISOString(),
          environment: entry.environment,
          sampleRate: entry.sampleRate,
        },
        { signal: this.abort.signal, onReached: (channel) => reached.push(channel) },
      );
    } catch (err) {
      if (isStateError(err)) throw err;
      // Abandoned (shutdown) or a bug: the trace stays pending and is taken again, its attempt not charged.
      await this.record(() => state.markPending(traceId, clock.now()));
      this.addTrace({
        traceId,
        status: 'pending',
        reason: this.abort.signal.aborted ? 'abandoned' : 'internal_error',
        scores: [],
        notScorable: [],
        attempts: attempts - 1,
      });
      // The message may quote trace text: the error's kind and where it was thrown say enough to find the bug.
      if (!this.abort.signal.aborted)
        logger.error(
          { traceId, error: 'internal_error', err: err instanceof Error ? err.name : typeof err, at: thrownAt(err) },
          'unexpected error while evaluating a trace; the trace stays pending',
        );
      return;
    }
    for (const channel of reached) for (const failed of this.held.succeeded(channel)) await this.charge(failed);
    if (outcome.kind === 'failed' && this.abort.signal.aborted) {
      // Whatever failed while the run was being abandoned is not the trace's doing.
      await this.refund({ entry, attempts, failure: outcome.failure }, 'abandoned');
      return;
    }
    await this.settle(entry, attempts, outcome);
  }

  private async settle(entry: LedgerEntry, attempts: number, outcome: TraceOutcome): Promise<void> {
    const { state, clock, logger } = this.deps;
    const traceId = entry.traceId;
    const now = clock.now();
    if (outcome.kind === 'done') {
      await this.record(() => state.markDone(traceId, outcome.scoreIds, now));
      if (outcome.written) this.written.set(traceId, { entry, attempts, scoreIds: outcome.scoreIds });
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
        if (outcome.language) {
          const byLanguage = this.languageSums.get(s.metric) ?? new Map<string, { sum: number; n: number }>();
          const l = byLanguage.get(outcome.language) ?? { sum: 0, n: 0 };
          l.sum += s.value;
          l.n += 1;
          byLanguage.set(outcome.language, l);
          this.languageSums.set(s.metric, byLanguage);
        }
        this.scoredCount += 1;
      }
      // A backlog drains in one long run: its quality gauges (and the alerts on them) cannot wait for its end.
      if (this.onMeans && outcome.scored.length > 0 && ++this.tracesScored % MEANS_EVERY === 0)
        await this.record(() => this.onMeans!(this.means()));
      for (const m of outcome.notScorable) this.recorder.metricResult(m, 'not_scorable');
      if (outcome.leak) this.recorder.answerLeak?.(outcome.leak);
      this.addTrace({ traceId, status: 'done', scores: outcome.scored, notScorable: outcome.notScorable, attempts });
      logger.debug({ traceId, scores: outcome.scored.length, notScorable: outcome.notScorable }, 'trace scored');
      return;
    }
    if (outcome.kind === 'skipped') {
      await this.record(() => state.markSkipped(traceId, outcome.reason, now));
      this.report.skipped[outcome.reason] = (this.report.skipped[outcome.reason] ?? 0) + 1;
      this.recorder.traceSkipped(outcome.reason, entry.traceName);
      this.addTrace({ traceId, status: 'skipped', reason: outcome.reason, scores: [], notScorable: [], attempts });
      logger.debug({ traceId, reason: outcome.reason }, 'trace skipped');
      return;
    }
    const { failure } = outcome;
    if (failure.code.startsWith('metric:'))
      this.recorder.metricResult(failure.code.split(':')[1] as MetricName, 'failed');
    if (!failure.outageLike || !failure.dependency) return this.charge({ entry, attempts, failure });
    const channel = failure.channel ?? (failure.dependency === 'judge' ? 'judge' : 'langfuse:read');
    const failed: FailedTrace = { entry, attempts, failure: { ...failure, channel } };
    const release = await this.held.failed(channel, failure.dependency, failed, this.probeSignal());
    for (const f of release.charge) await this.charge(f);
    for (const f of release.refund) await this.refund(f);
    if (release.outage) this.declareOutage(channel, failure);
  }

  /**
   * Reads a sample of the run's scores back (see `read-back.ts`). A trace with a score that did not appear is
   * evaluated again: charged an attempt like any failure of its own, or, when no score read back appeared at all
   * (Langfuse dropping or holding everything, not this trace), back to pending with nothing charged.
   */
  private async confirmScores(): Promise<void> {
    const settings = this.settings.readBack;
    if (settings.sample === 0 || this.written.size === 0 || this.abort.signal.aborted) return;
    const { langfuse, logger } = this.deps;
    const signal = this.options.stop ? AbortSignal.any([this.abort.signal, this.options.stop]) : this.abort.signal;
    const written = [...this.written.values()].map((w) => ({ traceId: w.entry.traceId, scoreIds: w.scoreIds }));
    const sleep = this.deps.sleep ?? sleepFor;
    const present = (ids: readonly string[], s: AbortSignal) => langfuse.presentScoreIds(ids, s);
    const result = await readBack(written, settings, { present, sleep }, signal);
    if (result.kind === 'unread') {
      const error = langfuseFailure(result.error).code;
      logger.warn({ job: this.mode.job, error }, 'reading the scores back failed; they are not confirmed this run');
      return;
    }
    const unconfirmed = result.missing.reduce((n, w) => n + w.scoreIds.length, 0);
    this.report.scoresReadBack += result.checked;
    this.report.scoresUnconfirmed += unconfirmed;
    this.recorder.scoresReadBack(result.checked, unconfirmed);
    if (unconfirmed === 0) return;
    const everyOne = unconfirmed === result.checked;
    logger.warn(
      { job: this.mode.job, readBack: result.checked, unconfirmed, withinSeconds: settings.withinSeconds },
      everyOne
        ? 'no score read back appeared in Langfuse; their traces stay pending and nothing is charged'
        : 'scores Langfuse acknowledged did not appear (dropped after its 207); their traces are evaluated again',
    );
    const failure: Failure = { dependency: 'langfuse', code: UNCONFIRMED, outageLike: everyOne };
    for (const missing of result.missing) {
      const w = this.written.get(missing.traceId);
      if (!w) continue;
      // The trace's `done` line gives way to what became of it now.
      this.report.traces = this.report.traces.filter((t) => t.traceId !== missing.traceId || t.status !== 'done');
      if (everyOne) await this.refund({ entry: w.entry, attempts: w.attempts, failure });
      else await this.charge({ entry: w.entry, attempts: w.attempts, failure });
    }
  }

  private probeSignal(): AbortSignal {
    return AbortSignal.any([this.abort.signal, AbortSignal.timeout(60_000)]);
  }

  /** Settles the failures still held once nothing is in flight (see `HeldFailures.settleRest`). */
  private async settleHeld(): Promise<void> {
    if (this.abort.signal.aborted) {
      for (const f of this.held.takeAll()) await this.refund(f, 'abandoned');
      return;
    }
    const rest = await this.held.settleRest((channel) => DEPENDENCY_OF[channel], this.probeSignal());
    for (const f of rest.charge) await this.charge(f);
    for (const f of rest.refund) await this.refund(f);
    for (const channel of rest.outageChannels) {
      const failure = rest.refund.find((f) => f.failure.channel === channel)?.failure;
      if (failure) this.declareOutage(channel, failure);
    }
  }

  /** A dependency failed for every trace that needed it: stop taking traces; nothing is charged for it. */
  private declareOutage(channel: Channel, failure: Failure): void {
    if (this.report.outcome === 'success') {
      this.deps.logger.warn(
        { job: this.mode.job, dependency: failure.dependency, channel, error: failure.code },
        `${failure.dependency} is failing for every trace (${channel}); stopping the run, the traces stay pending and nothing is charged`,
      );
    }
    this.endEarly('incomplete', failure.code);
  }

  /** Back to pending with the attempt given back: the failure was not the trace's. */
  private async refund({ entry, attempts, failure }: FailedTrace, reason = failure.code): Promise<void> {
    await this.record(() => this.deps.state.markPending(entry.traceId, this.deps.clock.now()));
    this.addTrace({
      traceId: entry.traceId,
      status: 'pending',
      reason,
      scores: [],
      notScorable: [],
      attempts: attempts - 1,
    });
  }

  /** The failure is the trace's own: an attempt spent, retried with backoff, dead after the last one. */
  private async charge({ entry, attempts, failure }: FailedTrace): Promise<void> {
    const { state, clock, logger } = this.deps;
    const traceId = entry.traceId;
    const now = clock.now();
    this.report.failed += 1;
    this.recorder.traceFailed(failure.code);
    if (attempts >= this.settings.maxAttempts) {
      await this.record(() => state.markDead(traceId, failure.code, now));
      this.report.dead += 1;
      this.recorder.traceDead();
      this.addTrace({ traceId, status: 'dead', reason: failure.code, scores: [], notScorable: [], attempts });
      logger.warn(
        { traceId, attempts, error: failure.code },
        'trace failed on every attempt and is now dead; it will not be retried',
      );
      return;
    }
    const retryAt = now + retryDelayMs(this.settings.retryBackoffSeconds, attempts);
    await this.record(() => state.markFailed(traceId, failure.code, now, retryAt));
    this.addTrace({ traceId, status: 'failed', reason: failure.code, scores: [], notScorable: [], attempts });
    logger.warn(
      { traceId, attempts, error: failure.code, retryAt: new Date(retryAt).toISOString() },
      'trace evaluation failed; will retry',
    );
  }

  /** Records what became of a trace; on shared state through a connection cut (see `recordThroughCut`). */
  private record(write: () => Promise<void>): Promise<void> {
    const { state, logger } = this.deps;
    return recordThroughCut(write, {
      shared: state.shared,
      signal: this.abort.signal,
      sleep: this.deps.sleep ?? sleepFor,
      maxWaitMs: this.settings.leaseSeconds * 1000,
      onRetry: (err) =>
        logger.warn(
          { job: this.mode.job, error: err.shortCode },
          'recording a trace failed; retrying until the state answers',
        ),
    });
  }

  private addTrace(trace: TraceReport) {
    this.report.traces.push(trace);
    this.options.progress?.settled();
  }

  /** Mean per metric and language of what this run scored. */
  meansByLanguage(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [metric, byLanguage] of this.languageSums)
      for (const [language, { sum, n }] of byLanguage) if (n > 0) (out[metric] ??= {})[language] = sum / n;
    return out;
  }

  means(): Partial<Record<MetricName, number>> {
    const out: Partial<Record<MetricName, number>> = {};
    for (const [metric, { sum, n }] of this.sums) if (n > 0) out[metric] = sum / n;
    return out;
  }
}

/** The first frame of an error's stack (`file:line:column`), which carries no data. */
function thrownAt(err: unknown): string | undefined {
  const frame = err instanceof Error ? err.stack?.split('\n').find((line) => /^\s+at /.test(line)) : undefined;
  return frame?.match(/\(?([^()\s]+:\d+:\d+)\)?$/)?.[1];
}
