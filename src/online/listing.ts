import type { NewLedgerEntry } from '../state/index.js';
import type { RunProgress, OnlineJobDeps, OnlineSettings, TickReport } from './run-types.js';
import type { OnlineRecorder, TraceSummary } from './ports.js';
import { decide } from './sampler.js';
import { computeWindow, nextCursor, type TickWindow } from './window.js';

/** Sampled traces recorded in one ledger transaction while listing. */
const RECORD_BATCH = 50;

/** Wakes the run's claim loop when the listing records entries or ends. */
export class ListingSignal {
  private waiters: Array<() => void> = [];
  private ended = false;

  get listing(): boolean {
    return !this.ended;
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  /** Resolves at the next `notify` or `end` (at once once ended). */
  changed(): Promise<void> {
    return this.ended ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

export interface ListingContext {
  deps: OnlineJobDeps;
  settings: OnlineSettings;
  run: { readonly stopped: boolean };
  report: TickReport;
  recorder: OnlineRecorder;
  progress?: RunProgress | undefined;
  signal: ListingSignal;
  abort: AbortSignal;
}

/**
 * Lists windows from `first` on, recording every sampled trace as a pending ledger entry, and moves the cursor to
 * each window's end once all of it is recorded: the ledger, not the cursor, holds the work still to do, so the
 * next window is listed while the claim loop evaluates. Goes on while windows are capped (a backlog) and the next
 * one ends later; the cursor never moves back (`previous`: where it stood). Returns the last window listed whole
 * (null if none was).
 */
export async function recordWindows(
  ctx: ListingContext,
  first: TickWindow,
  job: string,
  previous: number | null,
): Promise<TickWindow | null> {
  const { state, clock } = ctx.deps;
  let window: TickWindow | null = first;
  let last: TickWindow | null = null;
  let cursor = previous;
  while (window && !ctx.run.stopped) {
    const whole = await recordWindow(ctx, window);
    if (!whole) break;
    cursor = nextCursor(window, cursor);
    await state.setCursor(job, cursor, clock.now());
    last = window;
    if (ctx.report.window) ctx.report.window.to = window.to.toISOString();
    if (!window.capped) break;
    const next = computeWindow(ctx.settings.window, window.to, new Date(clock.now()));
    // A window no longer than the overlap would list the same slice again and again.
    window = next && next.to > window.to ? next : null;
  }
  return last;
}

/** Lists one window; true when it was listed to its end. */
async function recordWindow(ctx: ListingContext, window: TickWindow): Promise<boolean> {
  const { deps, report, recorder } = ctx;
  const { state, clock, langfuse } = deps;
  // Sampled traces are recorded RECORD_BATCH at a time, in one transaction: one commit per batch, not per trace
  // (a backlog of 100,000 sampled traces was 100,000 commits, each waiting for the server's WAL flush).
  let batch: NewLedgerEntry[] = [];
  const record = async () => {
    if (batch.length === 0) return;
    const entries = batch;
    batch = [];
    await state.ensureEntries(entries, clock.now());
    // Wake the claim loop: it claims what was just recorded.
    ctx.signal.notify();
  };
  const onExcluded = (summary: TraceSummary) => {
    report.excluded += 1;
    recorder.traceSkipped('excluded_tag', summary.name);
  };
  for await (const summary of langfuse.listTraces({
    from: window.from,
    to: window.to,
    signal: ctx.abort,
    onExcluded,
  })) {
    report.listed += 1;
    recorder.tracesListed(1);
    ctx.progress?.listed(report.listed);
    if (ctx.run.stopped) return false;
    const decision = decide(ctx.settings.sampling, summary.id, summary.name);
    if (!decision.sampled) continue;
    report.sampled += 1;
    recorder.traceSampled();
    batch.push(ledgerFields(summary, decision.rate, clock.now()));
    if (batch.length >= RECORD_BATCH) await record();
  }
  await record();
  ctx.signal.notify();
  return !ctx.run.stopped;
}

export function ledgerFields(summary: TraceSummary, rate: number, now: number) {
  const ms = Date.parse(summary.timestamp);
  return {
    traceId: summary.id,
    traceTimestamp: Number.isNaN(ms) ? now : ms,
    environment: summary.environment || null,
    traceName: summary.name,
    sampleRate: rate,
  };
}
