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

/** A report rendered: file name (`report.md`, `report.html`, `report.json`) → content. */
export type RenderedReport = Record<'report.md' | 'report.html' | 'report.json', string>;

/** The three views of a report; the same report gives byte-identical files. */
export function renderReportFiles(report: ExperimentReport, sections: ReportSections = {}): RenderedReport {
  return {
    'report.md': renderMarkdown(report, sections),
    'report.html': renderHtml(report, sections),
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
  };
}

/** Writes `<reportsDir>/<run>/report.{md,html,json}` (rendered here unless given). */
export async function writeReportFiles(
  reportsDir: string,
  report: ExperimentReport,
  sections: ReportSections = {},
  rendered: RenderedReport = renderReportFiles(report, sections),
): Promise<WrittenReport> {
  const dir = join(reportsDir, safeDirName(report.runName));
  await mkdir(dir, { recursive: true });
  const files = {
    markdown: join(dir, 'report.md'),
    html: join(dir, 'report.html'),
    json: join(dir, 'report.json'),
  };
  await writeFile(files.markdown, rendered['report.md']);
  await writeFile(files.html, rendered['report.html']);
  await writeFile(files.json, rendered['report.json']);
  return { dir, ...files };
}

/** Run names come from config or the CLI: keep them to one safe path segment. */
export function safeDirName(runName: string): string {
  const cleaned = runName.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
  return cleaned.length > 0 ? cleaned.slice(0, 120) : 'run';
}
