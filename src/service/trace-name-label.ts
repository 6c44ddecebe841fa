/**
 * Trace names as a metric label. Trace names are chosen by the instrumented app, so their number is open
 * and a careless app may even name a trace after the user's question: only names that look like
 * identifiers (a letter first, then letters, digits, ` _.:/#-`, at most three spaces, no run of five
 * digits, no `@`) are kept, and only the first `MAX_TRACE_NAME_LABELS` of them; every other name is
 * `other` and a trace without a name is `unnamed`.
 */

export const MAX_TRACE_NAME_LABELS = 20;

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9 _.:/#-]{0,79}$/;

export interface TraceNameLabels {
  label(traceName: string | null | undefined): string;
  /** Distinct names kept so far. */
  size(): number;
}

export function createTraceNameLabels(max = MAX_TRACE_NAME_LABELS): TraceNameLabels {
  const kept = new Set<string>();
  return {
    label(traceName) {
      if (traceName === null || traceName === undefined) return 'unnamed';
      if (!looksLikeIdentifier(traceName)) return 'other';
      if (kept.has(traceName)) return traceName;
      if (kept.size >= max) return 'other';
      kept.add(traceName);
      return traceName;
    },
    size: () => kept.size,
  };
}

function looksLikeIdentifier(name: string): boolean {
  return (
    IDENTIFIER.test(name) &&
    (name.match(/ /g)?.length ?? 0) <= 3 &&
    !/\d{5}/.test(name) &&
    name !== 'other' &&
    name !== 'unnamed'
  );
}
