import type { DatasetRunView, ObservationRecord } from './types.js';

/** A v4 experiment as a dataset run; `datasetId` is null for experiments on local data. */
export type ExperimentRun = Omit<DatasetRunView, 'datasetId' | 'datasetName'> & { datasetId: string | null };

/**
 * Groups experiment-tagged observations (`langfuse.experiment.*` span attributes) by experiment id, as Langfuse v4
 * reads experiments from its events table: items are the experiment item root spans. Most recent activity first.
 */
export function deriveExperimentRuns(observations: Iterable<ObservationRecord>): ExperimentRun[] {
  const runs = new Map<string, ExperimentRun>();
  for (const obs of observations) {
    const exp = obs.experiment;
    if (!exp) continue;
    let run = runs.get(exp.id);
    if (!run) {
      run = {
        id: exp.id,
        name: exp.name ?? '',
        description: exp.description,
        metadata: exp.metadata,
        datasetId: exp.datasetId,
        createdAt: obs.startTime,
        updatedAt: obs.startTime,
        items: [],
      };
      runs.set(exp.id, run);
    }
    run.createdAt = Math.min(run.createdAt, obs.startTime);
    run.updatedAt = Math.max(run.updatedAt, obs.endTime ?? obs.startTime);
    if (exp.itemRootObservationId === obs.id && exp.itemId && obs.traceId) {
      run.items.push({
        id: obs.id,
        datasetItemId: exp.itemId,
        traceId: obs.traceId,
        observationId: obs.id,
        createdAt: obs.startTime,
      });
    }
  }
  return [...runs.values()].sort((a, b) => b.updatedAt - a.updatedAt);
}
