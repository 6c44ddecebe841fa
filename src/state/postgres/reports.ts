import type { ReportArchive } from '../roles.js';
import type { Db } from './db.js';

/** The weekly reports' files on PostgreSQL: what `/reports/` on every replica serves. */
export function postgresReports(db: Db): ReportArchive {
  return {
    async putReport(report) {
      const files = Object.keys(report.files);
      await db.transaction(async (q) => {
        await q('DELETE FROM report_files WHERE run_dir = $1', [report.runDir]);
        await q(
          `INSERT INTO report_files (run_dir, file, body, created_at)
           SELECT $1, file, body, $4 FROM unnest($2::text[], $3::text[]) AS f(file, body)`,
          [report.runDir, files, files.map((f) => report.files[f]), report.createdAt],
        );
      });
    },
    async getReportFile(runDir, file) {
      const r = await db.query<{ body: string }>('SELECT body FROM report_files WHERE run_dir = $1 AND file = $2', [
        runDir,
        file,
      ]);
      return r.rows[0]?.body ?? null;
    },
    async listReports() {
      const r = await db.query<{ run_dir: string; created_at: number }>(
        `SELECT run_dir, MAX(created_at) AS created_at FROM report_files GROUP BY run_dir
         ORDER BY created_at DESC, run_dir DESC`,
      );
      return r.rows.map((row) => ({ runDir: row.run_dir, createdAt: Number(row.created_at) }));
    },
    async pruneReports(before) {
      const r = await db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM report_files WHERE created_at < $1 RETURNING run_dir)
         SELECT COUNT(DISTINCT run_dir) AS n FROM gone`,
        [before],
      );
      return Number(r.rows[0]?.n ?? 0);
    },
  };
}
