import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { ingestResourceSpans, InvalidOtlpError, validateResourceSpans } from '../otel/map.js';
import { ok } from './common.js';

/**
 * `POST /api/public/otel/v1/traces`, OTLP/HTTP JSON (optionally gzip) as `@opentelemetry/exporter-trace-otlp-http`
 * sends it from `@langfuse/otel`. Langfuse also takes binary protobuf; the stand-in answers 415 to it.
 */
function exportTraces(ctx: RouteContext) {
  const contentType = String(ctx.headers['content-type'] ?? '').toLowerCase();
  if (contentType.includes('application/x-protobuf')) {
    throw new HttpError(415, 'The ragwatch devkit Langfuse stand-in decodes OTLP/JSON only; send Content-Type: application/json');
  }
  if (!contentType.includes('application/json')) throw new HttpError(400, 'Invalid content type');
  const body = ctx.body as { resourceSpans?: unknown } | undefined;
  const resourceSpans = body?.resourceSpans;
  if (!resourceSpans || (Array.isArray(resourceSpans) && resourceSpans.length === 0)) return ok({});
  try {
    ingestResourceSpans(ctx.store, validateResourceSpans(resourceSpans));
  } catch (error) {
    if (error instanceof InvalidOtlpError) throw new HttpError(400, error.message);
    throw error;
  }
  return ok({});
}

export const otelRoutes: RouteDefinition[] = [
  { method: 'POST', template: '/api/public/otel/v1/traces', handler: exportTraces, maxBodyBytes: 64 * 1024 * 1024 },
];
