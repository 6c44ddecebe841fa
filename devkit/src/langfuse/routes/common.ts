import type { RouteContext, RouteResult } from '../router.js';
import type { ObservationRecord, TraceRecord } from '../types.js';

export function ok(body: unknown, status = 200): RouteResult {
  return { status, body };
}

/** What Langfuse v4 (events_only) answers on the legacy read routes, before checking auth. */
export function v4Rejection(ctx: RouteContext): RouteResult | undefined {
  if (ctx.personality !== 'v4') return undefined;
  return {
    status: 404,
    body: {
      message:
        'This endpoint is not available on deployments running in Langfuse v4 events_only mode. Learn more about Langfuse v4 at: https://langfuse.com/docs/v4',
    },
  };
}

/** What a v3 server answers on v4-only routes. */
export function v3Rejection(ctx: RouteContext, what: string): RouteResult | undefined {
  if (ctx.personality !== 'v3') return undefined;
  return {
    status: 404,
    body: {
      message: `The ${what} API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4`,
      error: 'LangfuseNotFoundError',
    },
  };
}

/**
 * Read lag: a record is visible once `ingestedAt + lag <= now` (lag of the read route) and `visibleAt <= now`
 * (lag knob of the route that wrote it).
 */
export function visibility(ctx: RouteContext): (r: TraceRecord | ObservationRecord) => boolean {
  const now = ctx.now();
  if (ctx.readLagMs <= 0 && now >= ctx.store.latestVisibleAt) return () => true;
  const cutoff = now - ctx.readLagMs;
  return (r) => r.ingestedAt <= cutoff && r.visibleAt <= now;
}

/** Part of a cache key: constant while everything is visible, else the instant the answer depends on. */
export function visibilityKey(ctx: RouteContext): string {
  const now = ctx.now();
  return ctx.readLagMs <= 0 && now >= ctx.store.latestVisibleAt ? 'all' : `${now}:${ctx.readLagMs}`;
}

/** One-entry memo per owner object, for paging repeatedly through the same filtered view. */
export function memoize<O extends object, T>(): (owner: O, key: string, compute: () => T) => T {
  const cache = new WeakMap<O, { key: string; value: T }>();
  return (owner, key, compute) => {
    const hit = cache.get(owner);
    if (hit && hit.key === key) return hit.value;
    const value = compute();
    cache.set(owner, { key, value });
    return value;
  };
}
