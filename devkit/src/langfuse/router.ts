import type { IncomingHttpHeaders } from 'node:http';
import type { LangfuseStore } from './store.js';
import type { Personality } from './types.js';

export interface RouteContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when there was none). */
  body: unknown;
  store: LangfuseStore;
  personality: Personality;
  now: () => number;
  /** Read lag in force for this request (ms): records received later than now − lag are invisible. */
  readLagMs: number;
  /** Read-lag knob of this (write) route (ms): what it writes stays hidden that long. */
  writeLagMs: number;
  /** The fault knob that drops acknowledged scores (ingestion): whether to drop the next one. */
  dropScore: () => boolean;
}

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as it is instead of `body` as JSON (OTLP protobuf answers). */
  rawBody?: Buffer;
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path template with `{param}` segments, e.g. `/api/public/traces/{traceId}`. */
  template: string;
  handler: RouteHandler;
  /** Default true; health is public. */
  auth?: boolean;
  /** Answer before auth (Langfuse v4 rejects legacy routes this way). */
  preAuth?: (ctx: RouteContext) => RouteResult | undefined;
  /** Largest accepted body in bytes (413 above). */
  maxBodyBytes?: number;
}

/** Thrown by handlers for a non-2xx answer. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type RouteMatch =
  | { kind: 'found'; route: RouteDefinition; params: Record<string, string> }
  | { kind: 'method_not_allowed'; template: string }
  | { kind: 'not_found' };

interface CompiledRoute {
  route: RouteDefinition;
  segments: string[];
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...routes: RouteDefinition[]): this {
    for (const route of routes) this.routes.push({ route, segments: route.template.split('/') });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/');
    let templateForOtherMethod: string | null = null;
    for (const { route, segments } of this.routes) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      templateForOtherMethod ??= route.template;
    }
    return templateForOtherMethod
      ? { kind: 'method_not_allowed', template: templateForOtherMethod }
      : { kind: 'not_found' };
  }
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | null {
  if (template.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    const p = parts[i]!;
    if (t.startsWith('{') && t.endsWith('}')) {
      if (p === '') return null;
      params[t.slice(1, -1)] = safeDecode(p);
    } else if (t !== p) {
      return null;
    }
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
