import { traceNameKey } from '../internal/index.js';
import type { JobRuns, Ledger, LedgerEntry } from '../state/index.js';
import { prepareForJudge, type EvaluateDeps } from './evaluate-trace.js';
import { ONLINE_JOB, type OnlineSettings } from './job.js';
import type { Clock, OnlineLangfuse, TraceSummary } from './ports.js';
import { decide, TakeBudget } from './sampler.js';
import { computeWindow, type TickWindow } from './window.js';

/** What a tick would do with one trace, and why. */
export interface PlannedTrace {
  traceId: string;
  /** The name's key (`traceNameKey`): printed, so never a careless name's text. */
  traceName: string | null;
  timestamp: string;
  /** The trace's sampling coordinate and the rate it was compared with (NaN: a ledger entry not listed now). */
  point: number;
  rate: number;
  ledger: string;
  /**
   * evaluate: taken, and extraction gives the judge a sample; skip: taken, and skipped for `reason` as the tick
   * would; unreadable: taken, but Langfuse does not return it (yet): the tick retries it later; defer_cap: due, left
   * for a later tick by the caps; already_done / already_skipped / dead: settled before; retry_later: failed, its
   * next attempt not due yet.
   */
  action:
    'evaluate' | 'skip' | 'unreadable' | 'defer_cap' | 'already_done' | 'already_skipped' | 'dead' | 'retry_later';
  reason?: string;
}

export interface TickPlan {
  /** From the first window's start to the last one's end: the whole backlog the tick lists. */
  window: { from: string; to: string } | null;
  /** The windows the backlog is listed in (`online.maxWindowSeconds` each at most). */
  windows: number;
  listed: number;
  /** Traces dropped for an excluded tag (`online.filters.excludeTags`), not counted in `listed`. */
  excluded: number;
  sampled: number;
  taken: number;
  deferred: number;
  evaluate: number;
  skipped: Record<string, number>;
  planned: PlannedTrace[];
}

/** One line per count of the plan, as `sample --once --dry-run` prints them under the table and `--help` says. */
export const PLAN_COUNTS: ReadonlyArray<readonly [string, string]> = [
  ['listed', 'traces Langfuse lists in the windows from the cursor to now less online.settleDelaySeconds'],
  ['sampled', 'of those, the ones whose coordinate u is below the rate (sampling.rate and its per-name overrides)'],
  [
    'taken',
    'due traces (sampled new ones, pending ones, failed ones whose retry time came) the tick takes, oldest first, within sampling.maxPerTick and what sampling.maxPerHour leaves',
  ],
  ['deferred', 'pending traces left for a later tick because a cap ran out'],
  ['evaluate', 'taken traces that give the judge a sample: they are scored'],
  ['skip', 'taken traces the tick skips, by reason (not_rag, no_contexts, pii_residual, …): no judge call'],
];

/**
 * A dry run of the next tick: the same windows (all of the backlog, as the tick lists them), sampling, ledger,
 * caps and, for each trace it would take, the same read, extraction and skip decision; no lease, no judge call,
 * no write. Traces the ledger already settled say what became of them.
 */
export async function planOnlineTick(
  deps: {
    state: JobRuns & Ledger;
    clock: Clock;
    langfuse: OnlineLangfuse;
  } & Pick<EvaluateDeps, 'extract' | 'anonymizer'>,
  settings: OnlineSettings,
  signal?: AbortSignal,
): Promise<TickPlan> {
  const now = deps.clock.now();
  const cursor = await deps.state.getCursor(ONLINE_JOB);
  const first = computeWindow(settings.window, cursor === null ? null : new Date(cursor), new Date(now));
  const plan: TickPlan = {
    window: first ? { from: first.from.toISOString(), to: first.to.toISOString() } : null,
    windows: 0,
    listed: 0,
    excluded: 0,
    sampled: 0,
    taken: 0,
    deferred: 0,
    evaluate: 0,
    skipped: {},
    planned: [],
  };

  // The listing: every window while the previous one was capped, as the tick's listing goes on.
  const sampled = new Map<string, { summary: TraceSummary; point: number; rate: number }>();
  for (let window: TickWindow | null = first; window;) {
    plan.windows += 1;
    for await (const summary of deps.langfuse.listTraces({
      from: window.from,
      to: window.to,
      ...(signal ? { signal } : {}),
      onExcluded: () => {
        plan.excluded += 1;
      },
    })) {
      plan.listed += 1;
      const decision = decide(settings.sampling, summary.id, summary.name);
      if (!decision.sampled) continue;
      plan.sampled += 1;
      sampled.set(summary.id, { summary, point: decision.point, rate: decision.rate });
    }
    if (plan.window) plan.window.to = window.to.toISOString();
    if (!window.capped) break;
    const next = computeWindow(settings.window, window.to, new Date(now));
    window = next && next.to > window.to ? next : null;
  }

  // What is due once the listing recorded it: the ledger's due entries and the sampled traces it does not hold.
  const due = new Map<string, { entry: LedgerEntry | null; timestamp: number }>();
  for (const entry of await deps.state.dueEntries(now, Number.MAX_SAFE_INTEGER))
    due.set(entry.traceId, { entry, timestamp: entry.traceTimestamp });
  const settled: PlannedTrace[] = [];
  for (const [id, s] of sampled) {
    if (due.has(id)) continue;
    const entry = await deps.state.getEntry(id);
    const listed = {
      traceId: id,
      traceName: traceNameKey(s.summary.name),
      timestamp: s.summary.timestamp,
      point: s.point,
      rate: s.rate,
    };
    if (!entry || entry.status === 'pending') {
      const ms = Date.parse(s.summary.timestamp);
      due.set(id, { entry: entry ?? null, timestamp: Number.isNaN(ms) ? now : ms });
      continue;
    }
    const action =
      entry.status === 'done'
        ? 'already_done'
        : entry.status === 'skipped'
          ? 'already_skipped'
          : entry.status === 'dead'
            ? 'dead'
            : 'retry_later';
    settled.push({ ...listed, ledger: ledgerText(entry), action });
  }

  // The claim loop: due traces oldest first while the caps allow; each taken one read and decided as the tick does.
  const budget = TakeBudget.from(settings.caps, await deps.state.attemptsSince(now - 3_600_000));
  const ordered = [...due].sort((a, b) => a[1].timestamp - b[1].timestamp || (a[0] < b[0] ? -1 : 1));
  for (const [id, { entry, timestamp }] of ordered) {
    const listed = sampled.get(id);
    const base = {
      traceId: id,
      traceName: traceNameKey(listed?.summary.name ?? entry?.traceName ?? null),
      timestamp: listed?.summary.timestamp ?? new Date(timestamp).toISOString(),
      point: listed?.point ?? Number.NaN,
      rate: listed?.rate ?? entry?.sampleRate ?? Number.NaN,
      ledger: entry ? ledgerText(entry) : 'new',
    };
    if (!budget.tryTake()) {
      if (!entry || entry.status === 'pending') plan.deferred += 1;
      plan.planned.push({ ...base, action: 'defer_cap' });
      continue;
    }
    plan.taken += 1;
    const decided = await decideTrace(deps, id, signal);
    if (decided.action === 'evaluate') plan.evaluate += 1;
    if (decided.action === 'skip') plan.skipped[decided.reason] = (plan.skipped[decided.reason] ?? 0) + 1;
    plan.planned.push({ ...base, ...decided });
  }
  // A tick whose caps did not run out defers nothing (it counts pending entries only when they did).
  if (!budget.exhausted) plan.deferred = 0;
  plan.planned.push(...settled);
  return plan;
}

function ledgerText(entry: LedgerEntry): string {
  return entry.reason ? `${entry.status}(${entry.reason})` : entry.status;
}

/** The tick's read and decision for one taken trace, without the judge. */
async function decideTrace(
  deps: { langfuse: OnlineLangfuse } & Pick<EvaluateDeps, 'extract' | 'anonymizer'>,
  traceId: string,
  signal: AbortSignal | undefined,
): Promise<{ action: 'evaluate' } | { action: 'skip'; reason: string } | { action: 'unreadable'; reason: string }> {
  const trace = await deps.langfuse.getTrace(traceId, signal);
  if (!trace) return { action: 'unreadable', reason: 'langfuse:trace_not_readable' };
  const prepared = prepareForJudge(deps, trace);
  if (prepared.kind === 'ready') return { action: 'evaluate' };
  if (prepared.kind === 'skipped') return { action: 'skip', reason: prepared.reason };
  return { action: 'unreadable', reason: prepared.failure.code };
}
