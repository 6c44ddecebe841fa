import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportRoute } from 'ragwatch/experiment/report-route.js';
import { directoryReports } from 'ragwatch/experiment/report-sources.js';

export interface ReportServer {
  /** Base URL: reports are at `<url>/reports/<run>/report.html`, as the daemon serves them. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a reports directory the way `ragwatch run` does (`/reports/…`), so the report links the demo's
 * experiment writes into Langfuse's run metadata open while the demo runs.
 */
export async function startReportServer(reportsDir: string, host = '127.0.0.1'): Promise<ReportServer> {
  // The demo's reports are its own stand-ins' data: served to whoever runs it, as http.reportsPublic does.
  const route = reportRoute(directoryReports(reportsDir), { public: true });
  const server = createServer((req, res) => {
    route(req, res)
      .then((handled) => {
        if (!handled) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
