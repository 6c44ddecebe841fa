import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { traceFromObservationsV2 } from '../../../src/langfuse/resources/observations.js';
import { traceFromV3 } from '../../../src/langfuse/resources/traces.js';
import type { TraceRecord } from '../../../src/langfuse/core/types.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/traces/', import.meta.url));

/** A fixture as the API returned it (v3 `GET /traces/{id}` body or a v2 observations page), normalised as `getTrace` does. */
export function loadTrace(file: string): TraceRecord {
  const body = JSON.parse(readFileSync(FIXTURES + file, 'utf8')) as Record<string, unknown>;
  if (file.endsWith('.v2.json')) {
    const rows = body.data as Array<Record<string, unknown>>;
    const trace = traceFromObservationsV2(String(rows[0]!.traceId), rows);
    if (!trace) throw new Error(`${file}: no observations`);
    return trace;
  }
  return traceFromV3(body);
}

export function fixtureFiles(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => /\.v[23]\.json$/.test(f))
    .sort();
}

export type Expected =
  { ok: true; question: string; answer: string; contexts: string[] } | { ok: false; reason: string };

export function expectations(): Record<string, Expected> {
  return JSON.parse(readFileSync(FIXTURES + 'expected.json', 'utf8')) as Record<string, Expected>;
}
