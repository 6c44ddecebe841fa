import { constants } from 'node:fs';
import { open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, join, relative } from 'node:path';

const FILES: Record<string, string> = {
  'report.html': 'text/html; charset=utf-8',
  'report.md': 'text/markdown; charset=utf-8',
  'report.json': 'application/json',
};

const RUN_DIR = /^[A-Za-z0-9._-]{1,120}$/;
const ALLOW = 'GET, HEAD';

/**
 * Serves `<reportsDir>/<run>/report.{html,md,json}` at `/reports/<run>/…` and a list of runs at `/reports/`.
 * Only those three names inside one directory level, and only regular files whose real path (links resolved)
 * is inside the real reports directory: a link to /etc/passwd or to the state file is a 404.
 */
export function reportRoute(reportsDir: string) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== '/reports' && !path.startsWith('/reports/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: ALLOW });
      return true;
    }
    if (path === '/reports' || path === '/reports/') {
      const runs = await listRuns(reportsDir);
      const items = runs
        .map(
          (r) =>
            `<li><a href="/reports/${encodeURIComponent(r)}/report.html">${escape(r)}</a> (<a href="/reports/${encodeURIComponent(r)}/report.md">md</a>, <a href="/reports/${encodeURIComponent(r)}/report.json">json</a>)</li>`,
        )
        .join('');
      send(
        req,
        res,
        200,
        'text/html; charset=utf-8',
        `<!doctype html><meta charset="utf-8"><title>ragwatch reports</title><h1>Golden-set reports</h1><ul>${items || '<li>no report yet</li>'}</ul>\n`,
      );
      return true;
    }
    const m = /^\/reports\/([^/]+)\/?([^/]*)$/.exec(path);
    let run: string | null = null;
    if (m) {
      try {
        run = decodeURIComponent(m[1] as string);
      } catch {
        run = null;
      }
    }
    const file = m?.[2] || 'report.html';
    const type = FILES[file];
    const valid = run !== null && type !== undefined && RUN_DIR.test(run) && !run.startsWith('.');
    const body = valid && run !== null ? await readConfined(reportsDir, run, file) : null;
    if (body === null || type === undefined) {
      send(req, res, 404, 'text/plain; charset=utf-8', 'no such report\n');
      return true;
    }
    send(req, res, 200, type, body);
    return true;
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

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
