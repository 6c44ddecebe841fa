import type { ExperimentHistory } from '../roles.js';
import { toItemValues, toRunRecord, type ItemValueRow, type RunRow } from '../rows.js';
import type { Db } from './db.js';

/** The experiment's run records on PostgreSQL: a run and its values replaced in one transaction. */
export function postgresExperimentHistory(db: Db): ExperimentHistory {
  return {
    async recordExperimentRun(run) {
      const items: string[] = [];
      const metrics: string[] = [];
      const values: number[] = [];
      for (const [metric, perItem] of Object.entries(run.perItem)) {
        for (const [itemId, value] of Object.entries(perItem)) {
          items.push(itemId);
          metrics.push(metric);
          values.push(value);
        }
      }
      await db.transaction(async (q) => {
        await q(
          `INSERT INTO experiment_runs (dataset, run_name, dataset_run_id, started_at, finished_at, split,
             gate_passed, means)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (dataset, run_name) DO UPDATE SET dataset_run_id = excluded.dataset_run_id,
             started_at = excluded.started_at, finished_at = excluded.finished_at, split = excluded.split,
             gate_passed = excluded.gate_passed, means = excluded.means`,
          [
            run.dataset,
            run.runName,
            run.datasetRunId,
            run.startedAt,
            run.finishedAt,
            run.split,
            run.gatePassed ? 1 : 0,
            JSON.stringify(run.means),
          ],
        );
        await q('DELETE FROM experiment_item_values WHERE dataset = $1 AND run_name = $2', [run.dataset, run.runName]);
        if (items.length > 0) {
          await q(
            `INSERT INTO experiment_item_values (dataset, run_name, item_id, metric, value)
             SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::double precision[])`,
            [run.dataset, run.runName, items, metrics, values],
          );
        }
      });
    },
    async listExperimentRuns(dataset, limit) {
      const r = await db.query<RunRow>(
        'SELECT * FROM experiment_runs WHERE dataset = $1 ORDER BY started_at DESC, run_name DESC LIMIT $2',
        [dataset, limit],
      );
      return r.rows.map(toRunRecord);
    },
    async getExperimentItemValues(dataset, runName) {
      const r = await db.query<ItemValueRow>(
        'SELECT item_id, metric, value FROM experiment_item_values WHERE dataset = $1 AND run_name = $2',
        [dataset, runName],
      );
      return toItemValues(r.rows);
    },
  };
}
