/**
 * Earlier runs of the dataset, for the comparison and the trend: read back from Langfuse (only runs ragwatch
 * recorded, by their metadata) through `EarlierRuns`, or from ragwatch's own record in the state store
 * (`run-record.ts`) when Langfuse cannot say (no readable values yet, or no runs API).
 */
import type { RagwatchConfig } from '../config/index.js';
import {
  type ApiGeneration,
  type Dataset,
  earlierRuns,
  type EarlierRuns,
  LangfuseApiError,
  type LangfuseHttp,
  type RunSummary,
} from '../langfuse/index.js';
import type { MetricName } from '../metrics/index.js';
import { GATE_SCORE, metricOfScore } from '../scores/index.js';
import { ExperimentInputError } from './errors.js';
import type { Logger } from '../runtime/index.js';
import type { PreviousRun, TrendPoint } from './report/index.js';
import { rememberedRun, rememberedRuns, versionsOf, type ExperimentState } from './run-record.js';

/** `experiment.compareWith` / `--compare-with`: the latest earlier run, the latest that passed, or one by name. */
export type CompareWith = 'previous' | 'last-passed' | { runName: string };

export function parseCompareWith(value: string): CompareWith {
  return value === 'previous' || value === 'last-passed' ? value : { runName: value };
}

export interface HistoryDeps {
  /** The dataset's runs in Langfuse. */
  runs: EarlierRuns;
  /** Which earlier run the new one is compared with (default `previous`). */
  compareWith?: CompareWith;
  state: ExperimentState | null;
  datasetName: string;
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
  /** The earlier ragwatch run the paired comparison is against (`compareWith`), with its per-item values. */
  previous: PreviousRun | null;
  /** How `previous` was chosen; `pinned`: a run named by `compareWith`. */
  basis: 'previous' | 'last-passed' | 'pinned';
  /** Earlier ragwatch runs, oldest first. */
  trend: TrendPoint[];
  /** Where the previous run's values came from. */
  source: 'langfuse' | 'state' | 'none';
}

/** Runs v4 lists are bounded by a start time; a year and a bit covers any trend window of weekly runs. */
const LOOKBACK_MS = 400 * 86_400_000;
/** Earlier runs read for per-item values, newest first, before falling back to ragwatch's own record. */
const BASELINE_CANDIDATES = 3;

/** The dataset's history as the run reads it: its runs in Langfuse, and the state's record. */
export function readHistory(
  deps: {
    http: LangfuseHttp;
    generation: ApiGeneration;
    state: ExperimentState | null;
    config: RagwatchConfig;
    logger: Logger;
  },
  dataset: Dataset,
  now: number,
  signal: AbortSignal,
  compareWith: CompareWith = parseCompareWith(deps.config.experiment.compareWith),
): Promise<History> {
  const { config } = deps;
  return loadHistory({
    runs: earlierRuns(deps.http, deps.generation, dataset),
    compareWith,
    state: deps.state,
    datasetName: dataset.name,
    metrics: config.experiment.metrics,
    scorePrefix: config.metrics.scorePrefix,
    trendRuns: config.experiment.trendRuns,
    now,
    logger: deps.logger,
    signal,
  });
}

/** What the new run is compared with, and the names it must not reuse. */
export async function loadHistory(deps: HistoryDeps): Promise<History> {
  const since = new Date(deps.now - LOOKBACK_MS).toISOString();
  const read = { since, ...(deps.signal ? { signal: deps.signal } : {}) };
  const local = deps.state ? await rememberedRuns(deps.state, deps.datasetName, Math.max(deps.trendRuns, 1) + 1) : [];
  let remote: RunSummary[] = [];
  let remoteOk = true;
  try {
    remote = await deps.runs.list(read);
  } catch (err) {
    if (!(err instanceof LangfuseApiError) || err.unreachable) throw err;
    remoteOk = false;
    deps.logger.warn({ error: err.message }, 'cannot list earlier runs in Langfuse; using ragwatch’s own record');
  }
  const existingNames = [...new Set([...remote.map((r) => r.name), ...local.map((r) => r.runName)])];
  // An incomplete run (an outage, too many failures) is never a baseline, nor a point of the trend.
  const ours = remote.filter((r) => r.metadata.source === 'ragwatch' && r.metadata.incomplete !== true);
  const scoreMetric = metricOfScore(deps.scorePrefix, deps.metrics);

  const compareWith = deps.compareWith ?? 'previous';
  const basis: History['basis'] = typeof compareWith === 'string' ? compareWith : 'pinned';
  // The runs that may be the baseline, newest first: every complete one, those whose gate passed (the run score
  // `rag-gate` Langfuse lists, or the state's record), or the one named.
  const passedLocally = new Set(local.filter((r) => r.gatePassed).map((r) => r.runName));
  const eligible = (name: string, runScores: Record<string, number> = {}) =>
    compareWith === 'previous' ||
    (compareWith === 'last-passed'
      ? runScores[GATE_SCORE] === 1 || passedLocally.has(name)
      : name === compareWith.runName);
  const baselines = ours.filter((r) => eligible(r.name, r.runScores));
  if (
    typeof compareWith === 'object' &&
    baselines.length === 0 &&
    !local.some((r) => r.runName === compareWith.runName)
  ) {
    throw new ExperimentInputError([
      `experiment.compareWith (--compare-with): no earlier complete ragwatch run named "${compareWith.runName}" in dataset ${deps.datasetName}`,
    ]);
  }

  let previous: PreviousRun | null = null;
  let source: History['source'] = 'none';
  // The newest such run with values on its items: one whose scores never reached Langfuse is passed over.
  for (const run of remoteOk ? baselines.slice(0, BASELINE_CANDIDATES) : []) {
    const perItem = await deps.runs.itemValues(run, scoreMetric, read);
    if ([...perItem.values()].some((m) => m.size > 0)) {
      previous = { runName: run.name, perItem, definitionVersions: versionsOf(run.metadata.definitionVersions) };
      source = 'langfuse';
      break;
    }
  }
  const newest = baselines[0];
  if (!previous) {
    const recorded = local.filter((r) => eligible(r.runName));
    const wanted = newest && remoteOk ? recorded.find((r) => r.runName === newest.name) : recorded[0];
    if (wanted && deps.state) {
      previous = await rememberedRun(deps.state, deps.datasetName, wanted.runName, deps.metrics);
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
      const perItem = await deps.runs.itemValues(run, scoreMetric, read);
      for (const metric of deps.metrics) means[metric] = meanOf(perItem.get(metric));
    }
    trend.push({ runName: run.name, date: run.createdAt, means });
    names.add(run.name);
  }
  for (const record of local) {
    if (trend.length >= deps.trendRuns || names.has(record.runName)) continue;
    trend.push({
      runName: record.runName,
      date: new Date(record.startedAt).toISOString(),
      means: Object.fromEntries(deps.metrics.map((m) => [m, record.means[m] ?? null])),
    });
  }
  trend.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { existingNames, previous, trend, source, basis };
}

function meanOf(values: ReadonlyMap<string, number> | undefined): number | null {
  if (!values || values.size === 0) return null;
  let sum = 0;
  for (const v of values.values()) sum += v;
  return sum / values.size;
}
