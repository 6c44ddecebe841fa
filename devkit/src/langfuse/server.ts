import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Faults, scoreDropper, type FaultDecision } from './faults.js';
import { decodeTraceExportRequest } from './otel/protobuf.js';
import { loadStore, persistOnChange } from './persist.js';
import { HttpError, Router, type RouteContext, type RouteResult } from './router.js';
import { StoreError } from './dataset-table.js';
import { LangfuseStore } from './store.js';
import type { Personality } from './types.js';
import { traceRoutes } from './routes/traces.js';
import { observationRoutes } from './routes/observations.js';
import { ingestionRoutes } from './routes/ingestion.js';
import { scoreConfigRoutes } from './routes/score-configs.js';
import { datasetRoutes } from './routes/datasets.js';
import { experimentRoutes } from './routes/experiments.js';
import { otelRoutes } from './routes/otel.js';
import { projectRoutes } from './routes/projects.js';
import { annotationQueueRoutes } from './routes/annotation-queues.js';
import { scoreReadRoutes } from './routes/scores.js';

export interface LangfuseServerOptions {
  personality: Personality;
  host?: string;
  port?: number;
  publicKey?: string;
  secretKey?: string;
  /** JSON file: loaded at start, saved shortly after changes and on close. */
  persistPath?: string;
  /** Injected clock (ms). */
  now?: () => number;
  /** Read lag for every route (seconds); a per-route fault knob overrides it. */
  readLagSeconds?: number;
  projectId?: string;
  /** Used for added latency; tests may inject one that records and resolves at once. */
  sleep?: (ms: number) => Promise<void>;
  /** Randomness behind error/reset rates (default Math.random; see `seededRandom`). */
  random?: () => number;
}

/** One request/response pair, reported to `onExchange` listeners (the Authorization header is left out). */
export interface Exchange {
  method: string;
  path: string;
  /** The matched route template, e.g. `/api/public/traces/{traceId}`, or null. */
  route: string | null;
  query: Record<string, string | string[]>;
  requestHeaders: IncomingHttpHeaders;
  requestBody: unknown;
  /** 0 when the connection was reset by a fault. */
  status: number;
  responseBody: unknown;
  fault: FaultDecision['kind'];
}

export interface LangfuseServer {
  /** Base URL without trailing slash. */
  url: string;
  personality: Personality;
  store: LangfuseStore;
  faults: Faults;
  publicKey: string;
  secretKey: string;
  onExchange(listener: (exchange: Exchange) => void): () => void;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 4.5 * 1024 * 1024; // generous: Langfuse sizes its JSON routes per deployment

const router = new Router().add(
  ...traceRoutes,
  ...observationRoutes,
  ...ingestionRoutes,
  ...scoreConfigRoutes,
  ...datasetRoutes,
  ...experimentRoutes,
  ...otelRoutes,
  ...projectRoutes,
  ...annotationQueueRoutes,
  ...scoreReadRoutes,
);

export async function startLangfuseServer(options: LangfuseServerOptions): Promise<LangfuseServer> {
  const publicKey = options.publicKey ?? 'pk-lf-devkit';
  const secretKey = options.secretKey ?? 'sk-lf-devkit';
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const store = new LangfuseStore({
    personality: options.personality,
    now,
    ...(options.projectId ? { projectId: options.projectId } : {}),
  });
  if (options.persistPath) loadStore(store, options.persistPath);
  const persistence = options.persistPath ? persistOnChange(store, options.persistPath) : null;
  const random = options.random ?? Math.random;
  const faults = new Faults(random);
  let listeners: ((exchange: Exchange) => void)[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`;

  const report = (exchange: Exchange) => {
    for (const listener of listeners) listener(exchange);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://devkit.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const method = req.method ?? 'GET';
    const match = router.match(method, path);
    const template =
      match.kind === 'found' ? match.route.template : match.kind === 'method_not_allowed' ? match.template : null;
    const decision = faults.decide(method, template, path);
    const knobs = faults.knobsFor(method, template, path);
    const { requestHeaders, query } = describeRequest(req, url);
    const exchange: Omit<Exchange, 'status' | 'responseBody'> = {
      method,
      path,
      route: template,
      query,
      requestHeaders,
      requestBody: undefined,
      fault: decision.kind,
    };
    const maxBytes = (match.kind === 'found' ? match.route.maxBodyBytes : undefined) ?? DEFAULT_MAX_BODY_BYTES;
    const body = await readBody(req, maxBytes);
    let parsed: unknown;
    let parseError: string | null = null;
    if (!body.tooLarge) {
      try {
        parsed = decodeBody(body.buffer, req.headers);
        exchange.requestBody = parsed;
      } catch (error) {
        parseError = (error as Error).message;
      }
    }
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.kind === 'reset') {
      req.socket.destroy();
      report({ ...exchange, status: 0, responseBody: undefined });
      return;
    }
    const send = (result: RouteResult) => {
      res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8', ...result.headers });
      res.end(result.rawBody ?? JSON.stringify(result.body));
      report({ ...exchange, status: result.status, responseBody: result.body });
    };
    if (decision.kind === 'error') {
      const headers: Record<string, string> =
        decision.status === 429 || decision.status === 503 ? { 'retry-after': String(decision.retryAfterSeconds) } : {};
      const message =
        decision.status === 429
          ? 'Rate limit exceeded'
          : decision.status === 503
            ? 'Service Unavailable'
            : 'Internal Server Error';
      send({ status: decision.status, body: { message, error: message }, headers });
      return;
    }
    if (match.kind === 'not_found')
      return send({ status: 404, body: { message: 'Route not found', error: 'NotFound' } });
    if (match.kind === 'method_not_allowed') {
      return send({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
    }
    if (body.tooLarge) {
      return send({ status: 413, body: { message: `Body exceeded ${(maxBytes / 1024 / 1024).toFixed(1)}mb limit` } });
    }
    if (parseError !== null) return send({ status: 400, body: { message: parseError } });
    const ctx: RouteContext = {
      method,
      path,
      params: match.params,
      query: url.searchParams,
      headers: req.headers,
      body: parsed,
      store,
      personality: options.personality,
      now,
      readLagMs: (knobs?.readLagSeconds ?? options.readLagSeconds ?? 0) * 1000,
      writeLagMs: (knobs?.readLagSeconds ?? 0) * 1000,
      dropScore: scoreDropper(knobs, random),
    };
    const early = match.route.preAuth?.(ctx);
    if (early) return send(early);
    if (match.route.auth !== false && req.headers.authorization !== expectedAuth) {
      return send({
        status: 401,
        body: {
          message: "Invalid credentials. Confirm that you've configured the correct host.",
          error: 'UnauthorizedError',
        },
      });
    }
    try {
      const route = match.route;
      send(
        await (route.method === 'GET'
          ? route.handler(ctx)
          : store.withVisibilityDelay(ctx.writeLagMs, () => route.handler(ctx))),
      );
    } catch (error) {
      send(errorResult(error));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal Server Error', error: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    personality: options.personality,
    store,
    faults,
    publicKey,
    secretKey,
    onExchange(listener) {
      listeners.push(listener);
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
    async close() {
      persistence?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function describeRequest(req: IncomingMessage, url: URL) {
  const { authorization: _omitted, ...requestHeaders } = req.headers;
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return { requestHeaders, query };
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<{ buffer: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) tooLarge = true;
    else chunks.push(chunk as Buffer);
  }
  return { buffer: Buffer.concat(chunks), tooLarge };
}

function decodeBody(buffer: Buffer, headers: IncomingHttpHeaders): unknown {
  if (buffer.length === 0) return undefined;
  let data = buffer;
  if (String(headers['content-encoding'] ?? '').includes('gzip')) {
    try {
      data = gunzipSync(buffer);
    } catch {
      throw new Error('Failed to decompress request body');
    }
  }
  const contentType = String(headers['content-type'] ?? '').toLowerCase();
  if (contentType.includes('application/x-protobuf')) {
    try {
      return decodeTraceExportRequest(data);
    } catch (error) {
      throw new Error(`Invalid protobuf in request body: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    throw new Error('Invalid JSON in request body');
  }
}

function errorResult(error: unknown): RouteResult {
  if (error instanceof HttpError) {
    const body: Record<string, unknown> = { message: error.message };
    if (error.details !== undefined) body.error = error.details;
    return { status: error.status, body };
  }
  if (error instanceof StoreError) {
    return { status: error.kind === 'not_found' ? 404 : 400, body: { message: error.message } };
  }
  return { status: 500, body: { message: 'Internal Server Error', error: (error as Error).message } };
}
