import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Expectation } from '@ragwatch/devkit/corpus/integrations/types.js';
import { traceFromObservationsV2 } from '../../../src/langfuse/resources/observations.js';
import { traceFromV3 } from '../../../src/langfuse/resources/traces.js';
import type { TraceRecord } from '../../../src/langfuse/core/types.js';

/** Trace fixtures produced by real integration packages (`npm run fixtures:integrations`), read as ragwatch reads them. */

export const INTEGRATION_FIXTURES = fileURLToPath(new URL('../../fixtures/traces/integrations/', import.meta.url));

export interface IntegrationExpectations {
  integration: string;
  transport: string;
  packages: Record<string, string>;
  scenarios: Record<string, { description: string; traceId: string; expect: Expectation }>;
}

export type ReadPath = 'v3' | 'v4';
export const READ_PATHS: ReadPath[] = ['v3', 'v4'];

export function integrationNames(): string[] {
  return readdirSync(INTEGRATION_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export function integrationExpectations(integration: string): IntegrationExpectations {
  return JSON.parse(
    readFileSync(join(INTEGRATION_FIXTURES, integration, 'expected.json'), 'utf8'),
  ) as IntegrationExpectations;
}

export function fixtureFilesOf(integration: string): string[] {
  return readdirSync(join(INTEGRATION_FIXTURES, integration))
    .filter((f) => /\.v[34]\.json$/.test(f))
    .sort();
}

/** The body the API returned, turned into a trace record by ragwatch's own read path for that generation. */
export function traceFromBody(path: ReadPath, traceId: string, body: Record<string, unknown>): TraceRecord {
  if (path === 'v3') return traceFromV3(body);
  const trace = traceFromObservationsV2(traceId, (body.data as Array<Record<string, unknown>>) ?? []);
  if (!trace) throw new Error(`no observations for ${traceId}`);
  return trace;
}

export function loadIntegrationTrace(integration: string, scenario: string, path: ReadPath): TraceRecord {
  const file = join(INTEGRATION_FIXTURES, integration, `${scenario}.${path}.json`);
  if (!existsSync(file)) throw new Error(`missing fixture ${integration}/${scenario}.${path}.json`);
  const body = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return traceFromBody(path, integrationExpectations(integration).scenarios[scenario]!.traceId, body);
}
