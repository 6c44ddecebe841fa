/**
 * ragwatch's own record of the weekly runs, in the state store: each complete run's means, per-item values and
 * metric definition versions (IDs and numbers, never item text). History falls back to it when Langfuse cannot
 * say; only a complete run is recorded, so an incomplete one is never a baseline.
 */
import type { MetricName } from '../metrics/index.js';
import type { ExperimentHistory, StateFacts, ExperimentRunRecord } from '../state/index.js';
import type { CleanResult } from './passes.js';
import { cell, perItemValues, type ExperimentReport, type PreviousRun } from './report/index.js';

/** The state roles the weekly experiment reads and records its runs through. */
export type ExperimentState = ExperimentHistory & Pick<StateFacts, 'getMeta' | 'setMeta'>;

/** The state key holding a run's metric definition versions (the runs table has no column for them). */
export function definitionsKey(dataset: string, runName: string): string {
  return `experiment.definitions:${dataset}:${runName}`;
}

/** Records a complete run (its report's means, its items' values), replacing one of the same dataset and name. */
export async function rememberRun(
  state: ExperimentState,
  report: ExperimentReport & { gate: { passed: boolean } },
  run: { datasetRunId: string | null; finished: readonly CleanResult[]; metrics: readonly MetricName[] },
  now: number,
): Promise<void> {
  const scoredOutcomes = run.finished.map((c) => c.outcome).filter((o) => !o.adversarial);
  const values = perItemValues(scoredOutcomes, [...run.metrics]);
  await state.recordExperimentRun({
    dataset: report.datasetName,
    runName: report.runName,
    datasetRunId: run.datasetRunId,
    startedAt: Date.parse(report.startedAt),
    finishedAt: Date.parse(report.finishedAt),
    split: report.split,
    gatePassed: report.gate.passed,
    means: Object.fromEntries(report.metrics.map((m) => [m, cell(report, m)?.summary.mean ?? null])),
    perItem: Object.fromEntries([...values].map(([m, byItem]) => [m, Object.fromEntries(byItem)])),
  });
  const versions = JSON.stringify(report.run.definitionVersions);
  await state.setMeta(definitionsKey(report.datasetName, report.runName), versions, now);
}

/** Recorded runs of a dataset, newest first. */
export function rememberedRuns(state: ExperimentState, dataset: string, limit: number): Promise<ExperimentRunRecord[]> {
  return state.listExperimentRuns(dataset, limit);
}

/** One recorded run's per-item values and definition versions, as a baseline. */
export async function rememberedRun(
  state: ExperimentState,
  dataset: string,
  runName: string,
  metrics: readonly MetricName[],
): Promise<PreviousRun> {
  const values = await state.getExperimentItemValues(dataset, runName);
  const recorded = await state.getMeta(definitionsKey(dataset, runName));
  return {
    runName,
    perItem: new Map(metrics.map((m) => [m, new Map(Object.entries(values[m] ?? {}))])),
    definitionVersions: versionsOf(recorded ? parseJson(recorded.value) : undefined),
  };
}

/** metric → version from run metadata; anything else (runs from before versions were recorded) is `{}`: version 1. */
export function versionsOf(value: unknown): Record<string, string> {
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
