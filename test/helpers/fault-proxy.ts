import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fault-injecting HTTP proxy on loopback, put between a client and a stand-in (Langfuse, the judge):
 * requests are forwarded unchanged unless a rule matches, and a matching rule answers in its place
 * (any status and body, an HTML error page, a reset connection, a hang), delays the answer, cuts the body
 * short, or rewrites the upstream's JSON. Every request is logged with the rule that touched it.
 *
 *   const proxy = await startFaultProxy(langfuse.url);
 *   proxy.add({ match: 'GET /api/public/traces', action: { kind: 'respond', status: 200, body: { data: 'x' } } });
 *   … point the client at proxy.url …
 */

export interface ProxiedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** The request body as text ('' when none). */
  body: string;
}

export type FaultAction =
  /** Answer without asking the upstream. A non-string body is sent as JSON. */
  | { kind: 'respond'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Answer with an HTML error page, as a load balancer or an auth proxy would (200 unless told). */
  | { kind: 'html'; status?: number }
  /** Forward, then replace the upstream's JSON body with what `transform` returns (status kept unless given). */
  | { kind: 'rewrite'; transform: (body: unknown, request: ProxiedRequest) => unknown; status?: number }
  /** Destroy the connection without answering. */
  | { kind: 'reset' }
  /** Forward, then send the headers and only the first `bytes` of the body before closing the connection. */
  | { kind: 'truncate'; bytes?: number }
  /** Forward after `ms`. */
  | { kind: 'delay'; ms: number }
  /** Never answer: the client's own deadline has to end the request. */
  | { kind: 'hang' };

export interface ProxyRule {
  /** `METHOD /path` or `/path`; `*` matches any run of characters. Matched against the path without its query. */
  match: string;
  /** A further condition on the request (query, body). */
  when?: (request: ProxiedRequest) => boolean;
  /** The next N matching requests only; every matching request when absent. */
  times?: number;
  /** Probability (0..1) that a matching request is touched; `random` decides. */
  rate?: number;
  action: FaultAction;
  /** Shown in the log; defaults to the action's kind. */
  name?: string;
}

export interface ProxyExchange {
  method: string;
  path: string;
  query: string;
  /** The status sent to the client; 0 when the connection was reset or left hanging. */
  status: number;
  /** The rule that touched the request, or null when it was forwarded as it was. */
  fault: string | null;
}

export interface FaultProxy {
  /** Base URL of the proxy (no trailing slash). */
  readonly url: string;
  readonly log: readonly ProxyExchange[];
  /** Adds a rule; the most recently added matching rule wins. Returns a function that removes it. */
  add(rule: ProxyRule): () => void;
  clear(): void;
  close(): Promise<void>;
}

interface ActiveRule extends ProxyRule {
  method: string | null;
  regex: RegExp;
  remaining: number;
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>\n';

export async function startFaultProxy(upstream: string, options: { random?: () => number } = {}): Promise<FaultProxy> {
  const target = new URL(upstream);
  const random = options.random ?? Math.random;
  let rules: ActiveRule[] = [];
  const log: ProxyExchange[] = [];
  const sockets = new Set<Socket>();

  function pick(request: ProxiedRequest): ActiveRule | undefined {
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if (rule.remaining <= 0) continue;
      if (rule.method !== null && rule.method !== request.method) continue;
      if (!rule.regex.test(request.path)) continue;
      if (rule.when && !rule.when(request)) continue;
      if (rule.rate !== undefined && random() >= rule.rate) continue;
      rule.remaining -= 1;
      return rule;
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bodyBuffer = Buffer.concat(chunks);
    const request: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: bodyBuffer.toString('utf8'),
    };
    const rule = pick(request);
    const entry: ProxyExchange = {
      method: request.method,
      path: request.path,
      query: url.search,
      status: 0,
      fault: rule ? (rule.name ?? rule.action.kind) : null,
    };
    log.push(entry);
    const action = rule?.action;

    if (action?.kind === 'reset') return void req.socket.destroy();
    if (action?.kind === 'hang') return;
    if (action?.kind === 'respond') {
      const isText = typeof action.body === 'string';
      const text = action.body === undefined ? '' : isText ? (action.body as string) : JSON.stringify(action.body);
      entry.status = action.status;
      return send(
        res,
        action.status,
        { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json', ...(action.headers ?? {}) },
        Buffer.from(text),
      );
    }
    if (action?.kind === 'html') {
      entry.status = action.status ?? 200;
      return send(res, entry.status, { 'content-type': 'text/html' }, Buffer.from(HTML_PAGE));
    }
    if (action?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, action.ms));

    const upstreamRes = await forward(target, req, url, bodyBuffer);
    const headers = { ...upstreamRes.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    if (action?.kind === 'rewrite') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(upstreamRes.body.toString('utf8'));
      } catch {
        parsed = upstreamRes.body.toString('utf8');
      }
      const rewritten = action.transform(parsed, request);
      entry.status = action.status ?? upstreamRes.status;
      const text = rewritten === undefined ? '' : JSON.stringify(rewritten);
      return send(res, entry.status, { ...headers, 'content-type': 'application/json' }, Buffer.from(text));
    }
    if (action?.kind === 'truncate') {
      const cut = upstreamRes.body.subarray(
        0,
        Math.min(action.bytes ?? Math.floor(upstreamRes.body.length / 2), Math.max(0, upstreamRes.body.length - 1)),
      );
      entry.status = upstreamRes.status;
      res.writeHead(upstreamRes.status, { ...headers, 'content-length': String(upstreamRes.body.length) });
      res.write(cut, () => res.socket?.destroy());
      return;
    }
    entry.status = upstreamRes.status;
    send(res, upstreamRes.status, headers, upstreamRes.body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 502, { 'content-type': 'text/plain' }, Buffer.from('proxy error\n'));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    add(rule) {
      const parsed = /^([A-Z]+)\s+(.*)$/.exec(rule.match.trim());
      const active: ActiveRule = {
        ...rule,
        method: parsed?.[1] ?? null,
        regex: globToRegex(parsed?.[2] ?? rule.match.trim()),
        remaining: rule.times ?? Number.POSITIVE_INFINITY,
      };
      rules.push(active);
      return () => {
        rules = rules.filter((r) => r !== active);
      };
    },
    clear() {
      rules = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): void {
  res.writeHead(status, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

function forward(
  target: URL,
  req: IncomingMessage,
  url: URL,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const headers = { ...req.headers, host: target.host };
  delete headers['content-length'];
  if (body.length > 0) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

function globToRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}
