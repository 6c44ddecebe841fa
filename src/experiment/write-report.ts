/**
 * The report stage: the report rendered once and kept where it is read, whether the run completed or not:
 * `<reportsDir>/<run>/report.{md,html,json}`, and, with PostgreSQL state, the state's report archive that every
 * replica serves `/reports/` from (older reports than `experiment.reportsRetentionDays` dropped). An incomplete run
 * ends here with `ExperimentIncompleteError`, carrying the report it wrote.
 */
import type { Logger } from '../runtime/index.js';
import type { ReportArchive } from '../state/index.js';
import { ExperimentIncompleteError } from './errors.js';
import type { RenderedSection } from './judge-stage.js';
import {
  renderReportFiles,
  safeDirName,
  writeReportFiles,
  type ExperimentReport,
  type WrittenReport,
} from './report/index.js';
import type { RunStatus } from './run-status.js';

const DAY_MS = 86_400_000;

export interface ReportTarget {
  /** The reports directory; null writes no file (a daemon on PostgreSQL state: the archive is where reports live). */
  dir: string | null;
  /** The state's report archive (PostgreSQL state). */
  archive: ReportArchive | null;
  retentionDays: number;
  /** The report's link (the run's metadata): what is said of a report kept in the archive only. */
  url: string;
  now: number;
}

export async function writeRunReport(
  target: ReportTarget,
  report: ExperimentReport,
  sections: { judge: RenderedSection; calibration: RenderedSection },
  status: RunStatus,
  logger: Logger,
): Promise<WrittenReport> {
  const rendered = renderReportFiles(report, sections);
  if (target.archive) {
    await target.archive.putReport({ runDir: safeDirName(report.runName), files: rendered, createdAt: target.now });
    const pruned = await target.archive.pruneReports(target.now - target.retentionDays * DAY_MS);
    if (pruned > 0)
      logger.info({ pruned, retentionDays: target.retentionDays }, 'older reports dropped from the state');
  }
  const files =
    target.dir !== null ? await writeReportFiles(target.dir, report, sections, rendered) : archivedLinks(target.url);
  const stop = status.stop;
  if (stop) {
    const said = { runName: report.runName, reason: stop.message, report: files.html };
    logger.warn(said, 'experiment incomplete: no gate verdict');
    throw new ExperimentIncompleteError(stop.dependency, stop.message, files, stop.kind);
  }
  return files;
}

/** Where a report kept only in the archive is read: its links (the HTML one as recorded, signature and all). */
function archivedLinks(url: string): WrittenReport {
  const at = url.lastIndexOf('/report.html');
  const dir = at >= 0 ? url.slice(0, at) : url;
  return { dir, html: url, markdown: `${dir}/report.md`, json: `${dir}/report.json` };
}
