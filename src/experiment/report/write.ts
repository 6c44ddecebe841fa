import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { ExperimentReport, ReportSections } from './model.js';

export interface WrittenReport {
  dir: string;
  markdown: string;
  html: string;
  json: string;
}

/** Writes `<reportsDir>/<run>/report.{md,html,json}`; the same report gives byte-identical files. */
export async function writeReportFiles(
  reportsDir: string,
  report: ExperimentReport,
  sections: ReportSections = {},
): Promise<WrittenReport> {
  const dir = join(reportsDir, safeDirName(report.runName));
  await mkdir(dir, { recursive: true });
  const files = {
    markdown: join(dir, 'report.md'),
    html: join(dir, 'report.html'),
    json: join(dir, 'report.json'),
  };
  await writeFile(files.markdown, renderMarkdown(report, sections));
  await writeFile(files.html, renderHtml(report, sections));
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  return { dir, ...files };
}

/** Run names come from config or the CLI: keep them to one safe path segment. */
export function safeDirName(runName: string): string {
  const cleaned = runName.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
  return cleaned.length > 0 ? cleaned.slice(0, 120) : 'run';
}
