import type { Database } from 'better-sqlite3';
import type { JobRuns } from '../roles.js';
import { toJobRun, type JobRunRow } from '../rows.js';

/** Cursors and job runs on SQLite. */
export function sqliteJobRuns(db: Database): JobRuns {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    getCursor: p('SELECT position FROM cursors WHERE job = ?'),
    setCursor: p(
      `INSERT INTO cursors (job, position, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (job) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
    ),
    getJobRun: p('SELECT * FROM job_runs WHERE job = ?'),
    jobStart: p(
      `INSERT INTO job_runs (job, last_start_at) VALUES (?, ?)
       ON CONFLICT (job) DO UPDATE SET last_start_at = excluded.last_start_at`,
    ),
    jobFinish: p(
      `INSERT INTO job_runs (job, last_finish_at, last_outcome, last_success_at) VALUES (@job, @now, @outcome, @success)
       ON CONFLICT (job) DO UPDATE SET last_finish_at = excluded.last_finish_at, last_outcome = excluded.last_outcome,
         last_success_at = COALESCE(excluded.last_success_at, job_runs.last_success_at)`,
    ),
  };
  return {
    async getCursor(job) {
      const row = stmt.getCursor.get(job) as { position: number } | undefined;
      return row ? row.position : null;
    },
    async setCursor(job, position, now) {
      stmt.setCursor.run(job, position, now);
    },
    async getJobRun(job) {
      const r = stmt.getJobRun.get(job) as JobRunRow | undefined;
      return r ? toJobRun(r) : null;
    },
    async recordJobStart(job, now) {
      stmt.jobStart.run(job, now);
    },
    async recordJobFinish(job, outcome, succeeded, now) {
      stmt.jobFinish.run({ job, now, outcome, success: succeeded ? now : null });
    },
  };
}
