import { LangfuseApiError, type LangfuseHttp } from './http.js';
import type { ApiGeneration } from './types.js';

export type GenerationSetting = 'auto' | ApiGeneration;

/**
 * Which read path the server speaks. `GET /api/public/traces?limit=1` answers on v3 servers and 404 on v4
 * ones, where the v2 observations API is confirmed before trusting the 404 (a wrong base URL 404s too).
 * Bad keys surface as a `LangfuseApiError` with status 401/403.
 */
export async function detectApiGeneration(
  http: LangfuseHttp,
  setting: GenerationSetting = 'auto',
  signal?: AbortSignal,
): Promise<ApiGeneration> {
  if (setting !== 'auto') return setting;
  const traces = await http.request({
    method: 'GET',
    path: '/api/public/traces',
    route: 'GET /api/public/traces',
    query: { limit: 1, fields: 'core' },
    accept: [404],
    signal,
  });
  if (traces.status !== 404) return 'v3';
  const observations = await http.request({
    method: 'GET',
    path: '/api/public/v2/observations',
    route: 'GET /api/public/v2/observations',
    query: { limit: 1 },
    accept: [404],
    signal,
  });
  if (observations.status !== 404) return 'v4';
  throw new LangfuseApiError(
    `no Langfuse public API at ${http.baseUrl}: both /api/public/traces and /api/public/v2/observations answer 404 (check langfuse.baseUrl)`,
    'GET /api/public/traces',
    'http',
    404,
    false,
    1,
  );
}
