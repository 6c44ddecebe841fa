import { HttpError, type RouteContext, type RouteDefinition, type RouteResult } from '../router.js';
import { ingestResourceSpans, InvalidOtlpError, validateResourceSpans } from '../otel/map.js';
import { ok } from './common.js';

/**
 * `POST /api/public/otel/v1/traces`, OTLP/HTTP in JSON (`@opentelemetry/exporter-trace-otlp-http`, as
 * `@langfuse/otel` sends it) or binary protobuf (`@opentelemetry/exporter-trace-otlp-proto`, e.g.
 * OpenLLMetry), optionally gzip. The answer is encoded like the request, as OTLP/HTTP requires: an empty
 * `ExportTraceServiceResponse` is zero protobuf bytes.
 */
function exportTraces(ctx: RouteContext): RouteResult {
  const contentType = String(ctx.headers['content-type'] ?? '').toLowerCase();
  const protobuf = contentType.includes('application/x-protobuf');
  if (!protobuf && !contentType.includes('application/json')) throw new HttpError(400, 'Invalid content type');
  const body = ctx.body as { resourceSpans?: unknown } | undefined;
  const resourceSpans = body?.resourceSpans;
  if (resourceSpans && !(Array.isArray(resourceSpans) && resourceSpans.length === 0)) {
    try {
      ingestResourceSpans(ctx.store, validateResourceSpans(resourceSpans));
    } catch (error) {
      if (error instanceof InvalidOtlpError) throw new HttpError(400, error.message);
      throw error;
    }
  }
  return protobuf
    ? { status: 200, body: {}, rawBody: Buffer.alloc(0), headers: { 'content-type': 'application/x-protobuf' } }
    : ok({});
}

export const otelRoutes: RouteDefinition[] = [
  { method: 'POST', template: '/api/public/otel/v1/traces', handler: exportTraces, maxBodyBytes: 64 * 1024 * 1024 },
];
