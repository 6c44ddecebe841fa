import type { RagwatchConfig } from '../../config/index.js';
import type { TraceSummary } from './types.js';

/** Which traces the online job looks at. Environment patterns accept `*` as a wildcard. */
export interface TraceFilters {
  /** Any of these trace names; empty = every name. */
  traceNames: string[];
  /** All of these tags (Langfuse's own `tags` semantics); empty = no tag condition. */
  tags: string[];
  /** Only these environments; empty = every environment not excluded. */
  environments: string[];
  excludeEnvironments: string[];
  /**
   * Traces carrying any of these tags are dropped (`*` as a wildcard): by default the tag the weekly experiment's
   * requests ask the RAG service to put on its traces (`EXPERIMENT_TRAFFIC_TAG`).
   */
  excludeTags: string[];
  /** Metadata key = value, all must hold (values compared as strings). */
  metadata: Record<string, string>;
  /** ragwatch's own environment: never taken, not even when `environments` names it. */
  ownEnvironment?: string;
}

/** The filters of `online.filters`, plus ragwatch's own environment, which is never sampled. */
export function filtersFromConfig(config: Pick<RagwatchConfig, 'langfuse' | 'online'>): TraceFilters {
  const f = config.online.filters;
  const exclude = new Set(f.excludeEnvironments);
  if (config.langfuse.ownEnvironment) exclude.add(config.langfuse.ownEnvironment);
  return {
    traceNames: [...f.traceNames],
    tags: [...f.tags],
    environments: [...f.environments],
    excludeEnvironments: [...exclude],
    excludeTags: [...f.excludeTags],
    metadata: { ...f.metadata },
    ...(config.langfuse.ownEnvironment ? { ownEnvironment: config.langfuse.ownEnvironment } : {}),
  };
}

export const noFilters = (): TraceFilters => ({
  traceNames: [],
  tags: [],
  environments: [],
  excludeEnvironments: [],
  excludeTags: [],
  metadata: {},
});

export function globMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An environment named explicitly in `environments` is taken even when an exclusion pattern matches it. */
export function environmentAllowed(environment: string, filters: TraceFilters): boolean {
  if (filters.ownEnvironment && environment === filters.ownEnvironment) return false;
  if (filters.environments.length > 0) {
    if (!filters.environments.some((p) => globMatches(p, environment))) return false;
    if (filters.environments.includes(environment)) return true;
  }
  return !filters.excludeEnvironments.some((p) => globMatches(p, environment));
}

export function needsMetadata(filters: TraceFilters): boolean {
  return Object.keys(filters.metadata).length > 0;
}

/** Whether one of the trace's tags is excluded (`excludeTags`). */
export function excludedByTag(trace: Pick<TraceSummary, 'tags'>, filters: Pick<TraceFilters, 'excludeTags'>): boolean {
  return filters.excludeTags.some((p) => trace.tags.some((t) => globMatches(p, t)));
}

/**
 * `match`: the filters take the trace; `excluded_tag`: they would, but one of its tags is excluded (a listing
 * reports those, so the online job can count them); `other`: some other condition drops it.
 */
export function filterVerdict(trace: TraceSummary, filters: TraceFilters): 'match' | 'excluded_tag' | 'other' {
  if (!matchesFilters(trace, { ...filters, excludeTags: [] })) return 'other';
  return excludedByTag(trace, filters) ? 'excluded_tag' : 'match';
}

export function matchesFilters(trace: TraceSummary, filters: TraceFilters): boolean {
  if (!environmentAllowed(trace.environment, filters)) return false;
  if (excludedByTag(trace, filters)) return false;
  if (filters.traceNames.length > 0 && (trace.name === null || !filters.traceNames.includes(trace.name))) return false;
  if (filters.tags.length > 0 && !filters.tags.every((t) => trace.tags.includes(t))) return false;
  if (needsMetadata(filters)) {
    const meta = trace.metadata;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
    for (const [key, expected] of Object.entries(filters.metadata)) {
      const actual = (meta as Record<string, unknown>)[key];
      if (actual === undefined || actual === null || String(actual) !== expected) return false;
    }
  }
  return true;
}

/** Environments that can go to the server as an `environment=` list: only plain names, no wildcards. */
export function serverSideEnvironments(filters: TraceFilters): string[] | undefined {
  if (filters.environments.length === 0 || filters.environments.some((e) => e.includes('*'))) return undefined;
  return filters.environments;
}
