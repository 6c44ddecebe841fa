import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasToken, mayRead, signedReportPath, type ReportAccess } from './report-access.js';
import { RUN_DIR, type ReportSource } from './report-sources.js';

const FILES: Record<string, string> = {
  'report.html': 'text/html; charset=utf-8',
  'report.md': 'text/markdown; charset=utf-8',
  'report.json': 'application/json',
};

const ALLOW = 'GET, HEAD';

/**
 * Serves `report.{html,md,json}` of each run at `/reports/<run>/…` and a list of runs at `/reports/`, from a
 * directory or the state's archive (`report-sources.ts`); only those three names, one level down. Unless `access`
 * is public, a request needs the bearer token, or, for a report file, the signature of its path (`report-access.ts`);
 * without either it is 401.
 */
export function reportRoute(source: ReportSource, access: ReportAccess) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://ragwatch.invalid');
    const path = url.pathname;
    if (path !== '/reports' && !path.startsWith('/reports/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { allow: ALLOW });
      return true;
    }
    const listing = path === '/reports' || path === '/reports/';
    if (!mayRead(req, url, access, !listing)) {
      send(req, res, 401, 'text/plain; charset=utf-8', 'reports need the token, or a signed link\n', {
        'www-authenticate': 'Bearer realm="ragwatch reports"',
      });
      return true;
    }
    if (listing) {
      // Asked with the token: the links it lists are signed, so they open in a browser too.
      const secret = hasToken(req, access) && !access.public ? access.signingSecret : null;
      const link = (run: string, file: string) =>
        escape(signedReportPath(secret, `/reports/${encodeURIComponent(run)}/${file}`));
      const items = (await source.list())
        .map(
          (r) =>
            `<li><a href="${link(r, 'report.html')}">${escape(r)}</a> (<a href="${link(r, 'report.md')}">md</a>, <a href="${link(r, 'report.json')}">json</a>)</li>`,
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
    const body = valid && run !== null ? await source.read(run, file) : null;
    if (body === null || type === undefined) {
      send(req, res, 404, 'text/plain; charset=utf-8', 'no such report\n');
      return true;
    }
    send(req, res, 200, type, body);
    return true;
  };
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
