import type { Database } from 'better-sqlite3';
import type { ExperimentHistory } from '../roles.js';
import { toItemValues, toRunRecord, type ItemValueRow, type RunRow } from '../rows.js';
import type { ExperimentRunRecord } from '../types.js';

/** The experiment's run records on SQLite. */
export function sqliteExperimentHistory(db: Database): ExperimentHistory {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    putRun: p(
      `INSERT INTO experiment_runs (dataset, run_name, dataset_run_id, started_at, finished_at, split, gate_passed,
         means)
       VALUES (@dataset, @runName, @datasetRunId, @startedAt, @finishedAt, @split, @gatePassed, @means)
       ON CONFLICT (dataset, run_name) DO UPDATE SET dataset_run_id = excluded.dataset_run_id,
         started_at = excluded.started_at, finished_at = excluded.finished_at, split = excluded.split,
         gate_passed = excluded.gate_passed, means = excluded.means`,
    ),
    clearValues: p('DELETE FROM experiment_item_values WHERE dataset = ? AND run_name = ?'),
    putValue: p(
      'INSERT INTO experiment_item_values (dataset, run_name, item_id, metric, value) VALUES (?, ?, ?, ?, ?)',
    ),
    listRuns: p('SELECT * FROM experiment_runs WHERE dataset = ? ORDER BY started_at DESC, run_name DESC LIMIT ?'),
    getValues: p('SELECT item_id, metric, value FROM experiment_item_values WHERE dataset = ? AND run_name = ?'),
  };
  const record = db.transaction((run: ExperimentRunRecord) => {
    stmt.putRun.run({
      dataset: run.dataset,
      runName: run.runName,
      datasetRunId: run.datasetRunId,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      split: run.split,
      gatePassed: run.gatePassed ? 1 : 0,
      means: JSON.stringify(run.means),
    });
    stmt.clearValues.run(run.dataset, run.runName);
    for (const [metric, values] of Object.entries(run.perItem)) {
      for (const [itemId, value] of Object.entries(values))
        stmt.putValue.run(run.dataset, run.runName, itemId, metric, value);
    }
  });
  return {
    async recordExperimentRun(run) {
      record(run);
    },
    async listExperimentRuns(dataset, limit) {
      return (stmt.listRuns.all(dataset, limit) as RunRow[]).map(toRunRecord);
    },
    async getExperimentItemValues(dataset, runName) {
      return toItemValues(stmt.getValues.all(dataset, runName) as ItemValueRow[]);
    },
  };
}
