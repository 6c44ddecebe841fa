import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

const FILES: Record<string, string> = {
  'report.html': 'text/html; charset=utf-8',
  'report.md': 'text/markdown; charset=utf-8',
  'report.json': 'application/json',
};

const RUN_DIR = /^[A-Za-z0-9._-]{1,120}$/;

/**
 * Serves `<reportsDir>/<run>/report.{html,md,json}` at `/reports/<run>/…` and a list of runs at `/reports/`.
 * Only those three names inside one directory level: no other file of the host can be reached.
 */
export function reportRoute(reportsDir: string) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/reports' || path === '/reports/') {
      const runs = await listRuns(reportsDir);
      const items = runs.map((r) => `<li><a href="/reports/${encodeURIComponent(r)}/report.html">${escape(r)}</a> (<a href="/reports/${encodeURIComponent(r)}/report.md">md</a>, <a href="/reports/${encodeURIComponent(r)}/report.json">json</a>)</li>`).join('');
      send(req, res, 200, 'text/html; charset=utf-8', `<!doctype html><meta charset="utf-8"><title>ragwatch reports</title><h1>Golden-set reports</h1><ul>${items || '<li>no report yet</li>'}</ul>\n`);
      return true;
    }
    const m = /^\/reports\/([^/]+)\/?([^/]*)$/.exec(path);
    if (!m) return false;
    let run: string;
    try {
      run = decodeURIComponent(m[1] as string);
    } catch {
      return false;
    }
    const file = m[2] || 'report.html';
    const type = FILES[file];
    if (!type || !RUN_DIR.test(run) || run.startsWith('.')) {
      send(req, res, 404, 'text/plain; charset=utf-8', 'no such report\n');
      return true;
    }
    let body: Buffer;
    try {
      body = await readFile(join(reportsDir, run, file));
    } catch {
      send(req, res, 404, 'text/plain; charset=utf-8', 'no such report\n');
      return true;
    }
    send(req, res, 200, type, body);
    return true;
  };
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
    if (!RUN_DIR.test(name)) continue;
    try {
      withTimes.push({ name, at: (await stat(join(reportsDir, name, 'report.json'))).mtimeMs });
    } catch {
      // not a report directory
    }
  }
  return withTimes.sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1)).map((r) => r.name);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
