import type { LangfuseHttp } from '../core/http.js';
import { scoreIdsFrom } from '../core/shapes.js';
import type { ApiGeneration } from '../core/types.js';

/** Ids asked in one request: the scores APIs' page limit. */
const IDS_PER_REQUEST = 100;

/**
 * Which of `ids` Langfuse serves now: the read-back of scores written. Langfuse answers an ingestion batch (207)
 * before it validates the scores in it, and drops those that fail, so an acknowledged score may never appear.
 * Langfuse v3 reads them at `GET /api/public/v2/scores?scoreIds=…`, v4 at `GET /api/public/v3/scores?id=…`.
 */
export async function presentScoreIds(
  http: LangfuseHttp,
  generation: ApiGeneration,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += IDS_PER_REQUEST) {
    const chunk = unique.slice(i, i + IDS_PER_REQUEST).join(',');
    const [path, query] =
      generation === 'v3'
        ? ['/api/public/v2/scores', { scoreIds: chunk, fields: 'score', limit: IDS_PER_REQUEST }]
        : ['/api/public/v3/scores', { id: chunk, limit: IDS_PER_REQUEST }];
    const route = `GET ${path}`;
    const res = await http.request<unknown>({ method: 'GET', path, route, query, signal });
    for (const id of scoreIdsFrom(res.data, route, res.status)) found.add(id);
  }
  return found;
}
