import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReadinessCheck {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

/** Extra routes (e.g. static reports later); return true when the request was answered. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface HttpServiceOptions {
  host: string;
  port: number;
  metrics: { render(): Promise<string>; contentType: string };
  readiness: () => Promise<ReadinessCheck>;
  routes?: RouteHandler[];
}

export interface HttpService {
  readonly port: number;
  readonly host: string;
  /** Adds a route handler after start (report serving, ...). */
  addRoute(handler: RouteHandler): void;
  close(): Promise<void>;
}

const OWN_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** `/healthz` (the process answers), `/readyz` (state reachable, no tick stuck), `/metrics` (Prometheus). */
export async function startHttpService(options: HttpServiceOptions): Promise<HttpService> {
  const routes = [...(options.routes ?? [])];
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (OWN_PATHS.has(path) && req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (path === '/healthz') return send(res, 200, 'application/json', '{"status":"ok"}\n');
      if (path === '/readyz') {
        const result = await options.readiness();
        return send(
          res,
          result.ready ? 200 : 503,
          'application/json',
          `${JSON.stringify({ status: result.ready ? 'ready' : 'not_ready', checks: result.checks })}\n`,
        );
      }
      if (path === '/metrics') return send(res, 200, options.metrics.contentType, await options.metrics.render());
    }
    for (const route of routes) if (await route(req, res)) return;
    send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    host: options.host,
    addRoute: (handler) => routes.push(handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Scrapers keep connections alive; do not let them hold the shutdown.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string) {
  res.writeHead(status, {
    'content-type': contentType,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
