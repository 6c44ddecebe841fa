/**
 * The report stage: `<reportsDir>/<run>/report.{md,html,json}`, written whether the run completed or not. An
 * incomplete run ends here with `ExperimentIncompleteError`, carrying the report it wrote.
 */
import type { Logger } from '../runtime/index.js';
import { ExperimentIncompleteError } from './errors.js';
import type { RenderedSection } from './judge-stage.js';
import { writeReportFiles, type ExperimentReport, type WrittenReport } from './report/index.js';
import type { RunStatus } from './run-status.js';

export async function writeRunReport(
  reportsDir: string,
  report: ExperimentReport,
  sections: { judge: RenderedSection; calibration: RenderedSection },
  status: RunStatus,
  logger: Logger,
): Promise<WrittenReport> {
  const files = await writeReportFiles(reportsDir, report, sections);
  const stop = status.stop;
  if (stop) {
    const said = { runName: report.runName, reason: stop.message, report: files.html };
    logger.warn(said, 'experiment incomplete: no gate verdict');
    throw new ExperimentIncompleteError(stop.dependency, stop.message, files, stop.kind);
  }
  return files;
}
