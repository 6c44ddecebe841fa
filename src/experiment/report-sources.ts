/**
 * Where `/reports/` reads the weekly reports from: the reports directory (one host's installation, SQLite state),
 * or the state's report archive (PostgreSQL state), which every replica shares, so any replica serves every report,
 * after a rollout too.
 */
import { constants } from 'node:fs';
import { open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { ReportArchive } from '../state/index.js';

export interface ReportSource {
  /** The runs' directory names, newest first. */
  list(): Promise<string[]>;
  /** One file of a run's report, or null. `run` and `file` are already checked names. */
  read(run: string, file: string): Promise<Buffer | string | null>;
}

/** The reports the state keeps (`putReport`). */
export function archivedReports(archive: Pick<ReportArchive, 'listReports' | 'getReportFile'>): ReportSource {
  return {
    list: async () => (await archive.listReports()).map((r) => r.runDir),
    read: (run, file) => archive.getReportFile(run, file),
  };
}

/**
 * `<reportsDir>/<run>/<file>`, only regular files whose real path (links resolved) is inside the real reports
 * directory: a link to /etc/passwd or to the state file reads as no report.
 */
export function directoryReports(reportsDir: string): ReportSource {
  return {
    list: () => listRuns(reportsDir),
    read: (run, file) => readConfined(reportsDir, run, file),
  };
}

/** Whether `real` is strictly below `root` (both real paths). */
function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * An open handle on `<reportsDir>/<run>/<file>` when it resolves to a regular file inside the real reports
 * directory, else null. The resolved path is opened without following a last link (O_NOFOLLOW, O_NONBLOCK for a
 * FIFO) and checked on the handle (fstat), so a directory, a FIFO or a link swapped in after the check is never read.
 */
async function openConfined(reportsDir: string, run: string, file: string): Promise<FileHandle | null> {
  let real: string;
  try {
    const root = await realpath(reportsDir);
    real = await realpath(join(reportsDir, run, file));
    if (!isInside(root, real)) return null;
  } catch {
    return null;
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    if ((await handle.stat()).isFile()) return handle;
  } catch {
    // gone, or not readable
  }
  await handle?.close();
  return null;
}

async function readConfined(reportsDir: string, run: string, file: string): Promise<Buffer | null> {
  const handle = await openConfined(reportsDir, run, file);
  if (!handle) return null;
  try {
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

async function confinedMtime(reportsDir: string, run: string, file: string): Promise<number | null> {
  const handle = await openConfined(reportsDir, run, file);
  if (!handle) return null;
  try {
    return (await handle.stat()).mtimeMs;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** A run's directory name as the route accepts it. */
export const RUN_DIR = /^[A-Za-z0-9._-]{1,120}$/;

async function listRuns(reportsDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(reportsDir);
  } catch {
    return [];
  }
  const withTimes: Array<{ name: string; at: number }> = [];
  for (const name of names) {
    if (!RUN_DIR.test(name) || name.startsWith('.')) continue;
    // a directory without a report.json of its own, inside, is not a report
    const at = await confinedMtime(reportsDir, name, 'report.json');
    if (at !== null) withTimes.push({ name, at });
  }
  return withTimes.sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1)).map((r) => r.name);
}
