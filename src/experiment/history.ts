import { LangfuseApiError, type LangfuseHttp } from '../langfuse/http.js';
import type { ApiGeneration } from '../langfuse/types.js';
import type { MetricName } from '../metrics/types.js';
import type { Logger } from '../service/logger.js';
import type { ExperimentHistory, StateFacts } from '../state/roles.js';
import { listDatasetRuns, readRunItemValues, type DatasetRef, type RunSummary } from './langfuse/runs.js';
import type { PreviousRun, TrendPoint } from './report/index.js';
import { metricOfScore } from '../scores/index.js';

/** The state roles the weekly experiment reads and records its runs through. */
export type ExperimentState = ExperimentHistory & Pick<StateFacts, 'getMeta' | 'setMeta'>;

export interface HistoryDeps {
  http: LangfuseHttp;
  generation: ApiGeneration;
  dataset: DatasetRef;
  state: ExperimentState | null;
  metrics: readonly MetricName[];
  scorePrefix: string;
  trendRuns: number;
  now: number;
  logger: Logger;
  signal?: AbortSignal;
}

export interface History {
  /** Every run name the dataset already has (any tool), for a unique new name. */
  existingNames: string[];
  /** The latest earlier ragwatch run with per-item values, for the paired comparison. */
  previous: PreviousRun | null;
  /** Earlier ragwatch runs, oldest first. */
  trend: TrendPoint[];
  /** Where the previous run's values came from. */
  source: 'langfuse' | 'state' | 'none';
}

/** Runs v4 lists are bounded by a start time; a year and a bit covers any trend window of weekly runs. */
const LOOKBACK_MS = 400 * 86_400_000;
/** Earlier runs read for per-item values, newest first, before falling back to ragwatch's own record. */
const BASELINE_CANDIDATES = 3;

/** The state key holding a run's metric definition versions (the runs table has no column for them). */
export function definitionsKey(dataset: string, runName: string): string {
  return `experiment.definitions:${dataset}:${runName}`;
}

/**
 * Earlier runs of the dataset: read back from Langfuse (only runs ragwatch recorded, by their metadata), or from
 * ragwatch's own record in the state store when Langfuse cannot say (no readable values yet, or no runs API).
 */
export async function loadHistory(deps: HistoryDeps): Promise<History> {
  const since = new Date(deps.now - LOOKBACK_MS).toISOString();
  const local = deps.state ? await deps.state.listExperimentRuns(deps.dataset.name, Math.max(deps.trendRuns, 1) + 1) : [];
  let remote: RunSummary[] = [];
  let remoteOk = true;
  try {
    remote = await listDatasetRuns(deps.http, deps.generation, deps.dataset, { since, ...(deps.signal ? { signal: deps.signal } : {}) });
  } catch (err) {
    if (!(err instanceof LangfuseApiError) || err.unreachable) throw err;
    remoteOk = false;
    deps.logger.warn({ error: err.message }, 'cannot list earlier runs in Langfuse; using ragwatch’s own record');
  }
  const existingNames = [...new Set([...remote.map((r) => r.name), ...local.map((r) => r.runName)])];
  // An incomplete run (an outage, too many failures) is never a baseline, nor a point of the trend.
  const ours = remote.filter((r) => r.metadata.source === 'ragwatch' && r.metadata.incomplete !== true);
  const scoreMetric = metricOfScore(deps.scorePrefix, deps.metrics);

  let previous: PreviousRun | null = null;
  let source: History['source'] = 'none';
  // The newest run with values on its items: one whose scores never reached Langfuse is passed over.
  for (const run of remoteOk ? ours.slice(0, BASELINE_CANDIDATES) : []) {
    const perItem = await readRunItemValues(deps.http, deps.generation, deps.dataset, run, scoreMetric, { since, ...(deps.signal ? { signal: deps.signal } : {}) });
    if ([...perItem.values()].some((m) => m.size > 0)) {
      previous = { runName: run.name, perItem, definitionVersions: versionsOf(run.metadata.definitionVersions) };
      source = 'langfuse';
      break;
    }
  }
  const newest = ours[0];
  if (!previous) {
    const wanted = newest && remoteOk ? local.find((r) => r.runName === newest.name) : local[0];
    if (wanted && deps.state) {
      const values = await deps.state.getExperimentItemValues(deps.dataset.name, wanted.runName);
      const recorded = await deps.state.getMeta(definitionsKey(deps.dataset.name, wanted.runName));
      previous = {
        runName: wanted.runName,
        perItem: new Map(deps.metrics.map((m) => [m, new Map(Object.entries(values[m] ?? {}))])),
        definitionVersions: versionsOf(recorded ? parseJson(recorded.value) : undefined),
      };
      source = 'state';
    }
  }

  const trend: TrendPoint[] = [];
  const names = new Set<string>();
  const candidates = remoteOk && ours.length > 0 ? ours : [];
  for (const run of candidates.slice(0, deps.trendRuns)) {
    const record = local.find((r) => r.runName === run.name);
    const means: TrendPoint['means'] = {};
    for (const metric of deps.metrics) {
      const fromRun = run.runScores[[...scoreMetric].find(([, m]) => m === metric)?.[0] ?? ''];
      const fromState = record?.means[metric];
      const fromPrevious = previous?.runName === run.name ? meanOf(previous.perItem.get(metric)) : null;
      means[metric] = fromRun ?? fromState ?? fromPrevious ?? null;
    }
    // A run this state never recorded and whose listing carries no run scores (v3): its items' scores say.
    if (!record && deps.metrics.every((m) => means[m] === null)) {
      const perItem = await readRunItemValues(deps.http, deps.generation, deps.dataset, run, scoreMetric, { since, ...(deps.signal ? { signal: deps.signal } : {}) });
      for (const metric of deps.metrics) means[metric] = meanOf(perItem.get(metric));
    }
    trend.push({ runName: run.name, date: run.createdAt, means });
    names.add(run.name);
  }
  for (const record of local) {
    if (trend.length >= deps.trendRuns || names.has(record.runName)) continue;
    trend.push({ runName: record.runName, date: new Date(record.startedAt).toISOString(), means: Object.fromEntries(deps.metrics.map((m) => [m, record.means[m] ?? null])) });
  }
  trend.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { existingNames, previous, trend, source };
}

function meanOf(values: ReadonlyMap<string, number> | undefined): number | null {
  if (!values || values.size === 0) return null;
  let sum = 0;
  for (const v of values.values()) sum += v;
  return sum / values.size;
}

/** metric → version from run metadata; anything else (runs from before versions were recorded) is `{}`: definition 1. */
function versionsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
