import { noFilters, type TraceFilters } from '../core/filters.js';
import type { LangfuseHttp } from '../core/http.js';
import { getTraceV4, listTracesV4 } from './observations.js';
import { TraceReadBudget, type ReadLimits } from '../core/read-budget.js';
import { getTraceV3, listTracesV3, type ExcludedListener } from './traces.js';
import type { ApiGeneration, TraceRecord, TraceSummary } from '../core/types.js';

export interface ListTracesOptions {
  generation: ApiGeneration;
  /** Inclusive start of the window. */
  from: Date;
  /** Exclusive end of the window. */
  to: Date;
  filters?: TraceFilters;
  /** Defaults to the API's maximum (v3: 100, v4: 1000). */
  pageSize?: number;
  signal?: AbortSignal;
  /** Cap on each string of a listing page (`langfuse.maxFieldBytes`). */
  maxFieldBytes?: number;
  /** Told of each trace dropped for an excluded tag (`online.filters.excludeTags`). */
  onExcluded?: ExcludedListener;
}

/**
 * The traces of a window, streamed: pages are fetched as the consumer iterates, so a window of any size
 * costs one page of memory. Filters go to the server where the API allows and are applied again locally.
 */
export function listTraces(http: LangfuseHttp, options: ListTracesOptions): AsyncIterable<TraceSummary> {
  const window = {
    from: options.from,
    to: options.to,
    filters: options.filters ?? noFilters(),
    pageSize: options.pageSize,
    signal: options.signal,
    ...(options.maxFieldBytes === undefined ? {} : { maxFieldBytes: options.maxFieldBytes }),
    ...(options.onExcluded ? { onExcluded: options.onExcluded } : {}),
  };
  return options.generation === 'v4' ? listTracesV4(http, window) : listTracesV3(http, window);
}

/**
 * One trace in full, normalised to the same record for both generations. `null` means the server does not
 * show it: for a trace that was listed, that is read lag, so retry later rather than skipping it. With `limits`,
 * what is read and kept of the trace stays within them (`record.readCut` says what was cut).
 */
export function getTrace(
  http: LangfuseHttp,
  id: string,
  generation: ApiGeneration,
  signal?: AbortSignal,
  limits?: ReadLimits,
): Promise<TraceRecord | null> {
  const budget = limits ? new TraceReadBudget(limits) : undefined;
  return generation === 'v4' ? getTraceV4(http, id, signal, budget) : getTraceV3(http, id, signal, budget);
}
