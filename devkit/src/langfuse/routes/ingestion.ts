import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ingestBatch } from '../ingest.js';
import { CreateScoreRequest } from '../ingestion-schema.js';
import { HttpError, type RouteContext, type RouteDefinition } from '../router.js';
import { ok } from './common.js';

/** Langfuse documents batches up to 3.5 MB; the stand-in answers 413 above that. */
export const INGESTION_MAX_BYTES = 3.5 * 1024 * 1024;

const BatchRequest = z.object({ batch: z.array(z.unknown()), metadata: z.unknown().nullish() });

function ingestion(ctx: RouteContext) {
  const parsed = BatchRequest.safeParse(ctx.body);
  if (!parsed.success)
    throw new HttpError(
      400,
      'Invalid request data',
      parsed.error.issues.map((i) => i.message),
    );
  return ok(ingestBatch(ctx.store, parsed.data.batch, ctx.personality, ctx.dropScore), 207);
}

/** `POST /api/public/scores`: one score-create event stamped now; answers `{ id }`. */
function createScore(ctx: RouteContext) {
  const parsed = CreateScoreRequest.safeParse(ctx.body);
  if (!parsed.success) throw new HttpError(400, 'Invalid request data', parsed.error.issues);
  if (parsed.data.source === 'ANNOTATION' && !parsed.data.configId && parsed.data.dataType !== 'CORRECTION') {
    throw new HttpError(
      400,
      'Invalid request data: an ANNOTATION score needs a configId (unless its dataType is CORRECTION)',
    );
  }
  const id = parsed.data.id || randomUUID();
  const event = {
    id: randomUUID(),
    type: 'score-create',
    timestamp: new Date(ctx.now()).toISOString(),
    body: { ...parsed.data, id },
  };
  const result = ingestBatch(ctx.store, [event], 'v3', ctx.dropScore);
  const error = result.errors[0];
  if (error) throw new HttpError(error.status, error.error ?? error.message ?? 'Invalid request data');
  return ok({ id });
}

export const ingestionRoutes: RouteDefinition[] = [
  { method: 'POST', template: '/api/public/ingestion', handler: ingestion, maxBodyBytes: INGESTION_MAX_BYTES },
  { method: 'POST', template: '/api/public/scores', handler: createScore },
];
