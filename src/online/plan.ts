import type { JobRuns, Ledger } from '../state/index.js';
import { ONLINE_JOB, type OnlineSettings } from './job.js';
import type { Clock, OnlineLangfuse } from './ports.js';
import { decide, TakeBudget } from './sampler.js';
import { computeWindow } from './window.js';

/** What a tick would do with one trace, and why. */
export interface PlannedTrace {
  traceId: string;
  traceName: string | null;
  timestamp: string;
  /** The trace's sampling coordinate and the rate it was compared with. */
  point: number;
  rate: number;
  ledger: string;
  action: 'evaluate' | 'retry' | 'defer_cap' | 'already_done' | 'already_skipped' | 'dead' | 'retry_later';
}

export interface TickPlan {
  window: { from: string; to: string } | null;
  more: boolean;
  listed: number;
  sampled: number;
  planned: PlannedTrace[];
}

/**
 * A dry run of the next tick: the same window, sampling and caps, but no lease, no judge call and no write.
 * Traces the ledger already holds say what became of them.
 */
export async function planOnlineTick(
  deps: { state: JobRuns & Ledger; clock: Clock; langfuse: OnlineLangfuse },
  settings: OnlineSettings,
  signal?: AbortSignal,
): Promise<TickPlan> {
  const now = deps.clock.now();
  const cursor = await deps.state.getCursor(ONLINE_JOB);
  const window = computeWindow(settings.window, cursor === null ? null : new Date(cursor), new Date(now));
  const budget = TakeBudget.from(settings.caps, await deps.state.attemptsSince(now - 3_600_000));
  const plan: TickPlan = {
    window: window ? { from: window.from.toISOString(), to: window.to.toISOString() } : null,
    more: window?.capped ?? false,
    listed: 0,
    sampled: 0,
    planned: [],
  };
  const seen = new Set<string>();

  for (const entry of await deps.state.dueEntries(now, settings.caps.maxPerTick)) {
    seen.add(entry.traceId);
    plan.planned.push({
      traceId: entry.traceId,
      traceName: entry.traceName,
      timestamp: new Date(entry.traceTimestamp).toISOString(),
      point: Number.NaN,
      rate: entry.sampleRate,
      ledger: entry.status,
      action: budget.tryTake() ? 'retry' : 'defer_cap',
    });
  }
  if (!window) return plan;
  for await (const summary of deps.langfuse.listTraces({ from: window.from, to: window.to, signal })) {
    plan.listed += 1;
    const decision = decide(settings.sampling, summary.id, summary.name);
    if (!decision.sampled) continue;
    plan.sampled += 1;
    if (seen.has(summary.id)) continue;
    seen.add(summary.id);
    const entry = await deps.state.getEntry(summary.id);
    const status = entry?.status ?? 'new';
    let action: PlannedTrace['action'];
    if (status === 'new' || status === 'pending') action = budget.tryTake() ? 'evaluate' : 'defer_cap';
    else if (status === 'done') action = 'already_done';
    else if (status === 'skipped') action = 'already_skipped';
    else if (status === 'dead') action = 'dead';
    else action = 'retry_later';
    plan.planned.push({
      traceId: summary.id,
      traceName: summary.name,
      timestamp: summary.timestamp,
      point: decision.point,
      rate: decision.rate,
      ledger: entry?.reason ? `${status}(${entry.reason})` : status,
      action,
    });
  }
  return plan;
}
