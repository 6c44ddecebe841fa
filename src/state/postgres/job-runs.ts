import type { JobRuns } from '../roles.js';
import { toJobRun, type JobRunRow } from '../rows.js';
import type { Db } from './db.js';

/** Cursors and job runs on PostgreSQL. */
export function postgresJobRuns(db: Db): JobRuns {
  return {
    async getCursor(job) {
      const r = await db.query<{ position: number }>('SELECT position FROM cursors WHERE job = $1', [job]);
      return r.rows[0]?.position ?? null;
    },
    async setCursor(job, position, now) {
      await db.query(
        `INSERT INTO cursors (job, position, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (job) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
        [job, position, now],
      );
    },
    async getJobRun(job) {
      const r = (await db.query<JobRunRow>('SELECT * FROM job_runs WHERE job = $1', [job])).rows[0];
      return r ? toJobRun(r) : null;
    },
    async recordJobStart(job, now) {
      await db.query(
        `INSERT INTO job_runs (job, last_start_at) VALUES ($1, $2)
         ON CONFLICT (job) DO UPDATE SET last_start_at = excluded.last_start_at`,
        [job, now],
      );
    },
    async recordJobFinish(job, outcome, succeeded, now) {
      await db.query(
        `INSERT INTO job_runs (job, last_finish_at, last_outcome, last_success_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (job) DO UPDATE SET last_finish_at = excluded.last_finish_at, last_outcome = excluded.last_outcome,
           last_success_at = COALESCE(excluded.last_success_at, job_runs.last_success_at)`,
        [job, now, outcome, succeeded ? now : null],
      );
    },
  };
}
