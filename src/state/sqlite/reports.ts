import type { Database } from 'better-sqlite3';
import type { ReportArchive } from '../roles.js';
import type { StoredReport } from '../types.js';

/** The weekly reports' files on SQLite. */
export function sqliteReports(db: Database): ReportArchive {
  const p = (sql: string) => db.prepare(sql);
  const stmt = {
    drop: p('DELETE FROM report_files WHERE run_dir = ?'),
    put: p('INSERT INTO report_files (run_dir, file, body, created_at) VALUES (?, ?, ?, ?)'),
    get: p('SELECT body FROM report_files WHERE run_dir = ? AND file = ?'),
    list: p(
      `SELECT run_dir, MAX(created_at) AS created_at FROM report_files GROUP BY run_dir
       ORDER BY created_at DESC, run_dir DESC`,
    ),
    oldRuns: p('SELECT DISTINCT run_dir FROM report_files WHERE created_at < ?'),
    prune: p('DELETE FROM report_files WHERE created_at < ?'),
  };
  const put = db.transaction((report: StoredReport) => {
    stmt.drop.run(report.runDir);
    for (const [file, body] of Object.entries(report.files)) stmt.put.run(report.runDir, file, body, report.createdAt);
  });
  const prune = db.transaction((before: number) => {
    const runs = (stmt.oldRuns.all(before) as unknown[]).length;
    stmt.prune.run(before);
    return runs;
  });
  return {
    async putReport(report) {
      put.immediate(report);
    },
    async getReportFile(runDir, file) {
      return (stmt.get.get(runDir, file) as { body: string } | undefined)?.body ?? null;
    },
    async listReports() {
      return (stmt.list.all() as Array<{ run_dir: string; created_at: number }>).map((r) => ({
        runDir: r.run_dir,
        createdAt: r.created_at,
      }));
    },
    async pruneReports(before) {
      return prune.immediate(before);
    },
  };
}
