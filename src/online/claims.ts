import { isStateError, type Claim } from '../state/index.js';
import type { OnlineJobDeps, OnlineSettings, TickReport } from './run-types.js';
import type { OnlineRecorder } from './ports.js';
import type { TakeBudget } from './sampler.js';
import type { TickRun } from './tick-run.js';

/** What the claim loop waits on when nothing is due: this run's listing, or another replica's. */
export interface ClaimSource {
  /** True while this run's own listing may record more entries. */
  readonly listing: boolean;
  /** Resolves when this run's listing recorded entries or ended. */
  changed(): Promise<void>;
  /** Whether another replica is listing now (its entries will come): polled every `pollMs`. */
  othersListing(): Promise<boolean>;
  pollMs: number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * Fills the run's free slots with due ledger entries claimed for this replica, oldest trace first, until nothing
 * is due and no listing (this run's or another replica's) may add more, the caps are spent, or the run stops.
 * Claims last `online.leaseSeconds` and are renewed at a third of that while the run goes, so a replica that dies
 * frees its traces for the others after at most that long; a replica alive never loses them. The claims an earlier
 * run of this process left (it could not record a trace it had claimed: a connection cut) are handed back first:
 * runs of one job never overlap in a process, so none of them is in flight. A claim loop that fails (the state
 * does not answer) ends the run, listing included.
 */
export async function takeClaimed(
  run: TickRun,
  deps: OnlineJobDeps,
  settings: OnlineSettings,
  budget: TakeBudget,
  source: ClaimSource,
): Promise<void> {
  const { state, clock, holder } = deps;
  const ttl = settings.leaseSeconds * 1000;
  const claim = (): Claim => ({ holder: holder.id, until: clock.now() + ttl });
  const startedAt = clock.now();
  await state.releaseClaims(holder.id);
  const renewal = setInterval(
    () => {
      state
        .renewClaims(claim(), clock.now())
        .catch((err: unknown) => deps.logger.warn({ error: (err as Error).name }, 'renewing trace claims failed'));
    },
    Math.max(1000, ttl / 3),
  );
  renewal.unref();
  try {
    while (!run.stopped && budget.left > 0) {
      await run.whenSlotFree();
      if (run.stopped) break;
      const now = clock.now();
      // A trace this run gave back (abandoned, an internal error) waits for the next run, as before claims.
      const claimed = await state.claimDue(claim(), now, Math.min(run.freeSlots, budget.left), {
        attemptedBefore: startedAt,
      });
      for (const entry of claimed) {
        budget.tryTake();
        await run.take(entry);
      }
      if (claimed.length > 0) continue;
      if (source.listing) await source.changed();
      else if (await source.othersListing()) await source.sleep(source.pollMs, run.signal).catch(() => {});
      else break;
    }
  } catch (err) {
    run.endEarly('incomplete', isStateError(err) ? err.shortCode : 'internal_error');
    throw err;
  } finally {
    clearInterval(renewal);
  }
}

/** Due entries left for later runs when the caps ran out: counted and reported as deferred. */
export async function countDeferred(
  deps: OnlineJobDeps,
  report: TickReport,
  recorder: OnlineRecorder,
  budget: TakeBudget,
): Promise<void> {
  if (budget.left > 0) return;
  const due = await deps.state.countByStatus();
  report.deferred = due.pending;
  for (let i = 0; i < due.pending; i++) recorder.traceDeferred();
}
