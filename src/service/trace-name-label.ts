import { isHashedTraceName, traceNameKey } from '../internal/index.js';

/**
 * Trace names as a metric label. Trace names are chosen by the instrumented app, so their number is open
 * and a careless app may even name a trace after the user's question: only names that read as identifiers
 * (`traceNameKey` keeps them) are labels, and only the first `MAX_TRACE_NAME_LABELS` of them; every other name
 * (its key is a hash) is `other` and a trace without a name is `unnamed`. A name and its key get the same label.
 */

export const MAX_TRACE_NAME_LABELS = 20;

export interface TraceNameLabels {
  label(traceName: string | null | undefined): string;
  /** Distinct names kept so far. */
  size(): number;
}

export function createTraceNameLabels(max = MAX_TRACE_NAME_LABELS): TraceNameLabels {
  const kept = new Set<string>();
  return {
    label(traceName) {
      const key = traceNameKey(traceName);
      if (key === null) return 'unnamed';
      if (isHashedTraceName(key)) return 'other';
      if (kept.has(key)) return key;
      if (kept.size >= max) return 'other';
      kept.add(key);
      return key;
    },
    size: () => kept.size,
  };
}
