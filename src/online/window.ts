/** The time window one online tick lists, and how the cursor moves. Pure: times are passed in. */

export interface WindowSettings {
  settleDelaySeconds: number;
  overlapSeconds: number;
  initialLookbackSeconds: number;
  maxWindowSeconds: number;
}

export interface TickWindow {
  from: Date;
  to: Date;
  /** True when the cap cut the window short of `now − settle`: another tick right away would find more. */
  capped: boolean;
}

/**
 * `[cursor − overlap, now − settle]`, or `[now − settle − initialLookback, now − settle]` on the first run,
 * cut to at most `maxWindowSeconds`. The overlap re-lists a slice already seen so traces that reach Langfuse
 * late are still caught; the ledger makes re-listing harmless. Null when nothing has settled since the cursor.
 */
export function computeWindow(settings: WindowSettings, cursor: Date | null, now: Date): TickWindow | null {
  const settledUntil = now.getTime() - settings.settleDelaySeconds * 1000;
  const from = cursor
    ? cursor.getTime() - settings.overlapSeconds * 1000
    : settledUntil - settings.initialLookbackSeconds * 1000;
  if (settledUntil <= from) return null;
  const cappedTo = from + settings.maxWindowSeconds * 1000;
  const to = Math.min(settledUntil, cappedTo);
  return { from: new Date(from), to: new Date(to), capped: to < settledUntil };
}

/**
 * Where the cursor goes once every sampled trace of a window is in the ledger: to the window's end, never
 * backwards. Traces still pending there (deferred by a cap, abandoned at shutdown) are the ledger's to hand out,
 * so the cursor need not wait for them.
 */
export function nextCursor(window: TickWindow, previous: number | null): number {
  return previous === null ? window.to.getTime() : Math.max(previous, window.to.getTime());
}
