import { describe, expect, it } from 'vitest';
import { detectApiGeneration } from '../../../src/langfuse/core/detect.js';
import { environmentAllowed, filtersFromConfig, noFilters } from '../../../src/langfuse/core/filters.js';
import { createLangfuseHttp, LangfuseApiError } from '../../../src/langfuse/core/http.js';
import { getTrace, listTraces } from '../../../src/langfuse/resources/trace-reads.js';
import type { TraceSummary } from '../../../src/langfuse/core/types.js';
import { scriptedFetch } from './fake-fetch.js';
import { parseConfig } from '../../helpers/config.js';

const keys = { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk' };
const from = new Date('2025-03-01T10:00:00Z');
const to = new Date('2025-03-01T11:00:00Z');

async function collect(it: AsyncIterable<TraceSummary>) {
  const out: TraceSummary[] = [];
  for await (const t of it) out.push(t);
  return out;
}

function v3Trace(i: number, extra: Record<string, unknown> = {}) {
  return {
    id: `t-${i}`,
    name: 'rag',
    timestamp: '2025-03-01T10:30:00.000Z',
    environment: 'production',
    tags: [],
    ...extra,
  };
}

describe('listTraces (v3)', () => {
  it('pages with limit 100, fields=core, the window, and applies the default exclusions locally', async () => {
    const pages = [
      Array.from({ length: 100 }, (_, i) => v3Trace(i)),
      [
        v3Trace(100, { environment: 'langfuse-llm-as-a-judge' }),
        v3Trace(101, { environment: 'sdk-experiment' }),
        v3Trace(102, { environment: 'ragwatch' }),
        v3Trace(103, { environment: undefined }),
      ],
    ];
    const { fetch, requests } = scriptedFetch((req) => {
      const page = Number(req.url.searchParams.get('page'));
      return {
        status: 200,
        body: { data: pages[page - 1] ?? [], meta: { page, limit: 100, totalItems: 104, totalPages: 2 } },
      };
    });
    const http = createLangfuseHttp({ ...keys, fetch });
    const filters = filtersFromConfig(parseConfig({}));
    const got = await collect(listTraces(http, { generation: 'v3', from, to, filters }));
    expect(got).toHaveLength(101);
    expect(got.at(-1)).toEqual({
      id: 't-103',
      name: 'rag',
      timestamp: '2025-03-01T10:30:00.000Z',
      environment: 'default',
      tags: [],
    });
    expect(requests).toHaveLength(2);
    const q = requests[0]!.url.searchParams;
    expect(q.get('limit')).toBe('100');
    expect(q.get('fields')).toBe('core');
    expect(q.get('fromTimestamp')).toBe(from.toISOString());
    expect(q.get('toTimestamp')).toBe(to.toISOString());
  });

  it('sends name, tags and environments to the server and filters metadata locally (asking for io)', async () => {
    const { fetch, requests } = scriptedFetch(() => ({
      status: 200,
      body: {
        data: [
          v3Trace(1, { name: 'qa', tags: ['prod', 'rag'], metadata: { tenant: 'acme' } }),
          v3Trace(2, { name: 'qa', tags: ['prod', 'rag'], metadata: '{"tenant":"other"}' }),
          v3Trace(3, { name: 'qa', tags: ['prod'], metadata: { tenant: 'acme' } }),
        ],
        meta: { page: 1, limit: 100, totalItems: 3, totalPages: 1 },
      },
    }));
    const http = createLangfuseHttp({ ...keys, fetch });
    const filters = {
      ...noFilters(),
      traceNames: ['qa'],
      tags: ['prod', 'rag'],
      environments: ['production'],
      metadata: { tenant: 'acme' },
    };
    const got = await collect(listTraces(http, { generation: 'v3', from, to, filters }));
    expect(got.map((t) => t.id)).toEqual(['t-1']);
    const q = requests[0]!.url.searchParams;
    expect(q.get('name')).toBe('qa');
    expect(q.getAll('tags')).toEqual(['prod', 'rag']);
    expect(q.getAll('environment')).toEqual(['production']);
    expect(q.get('fields')).toBe('core,io');
  });
});

describe('listTraces (v4)', () => {
  it('lists root observations with cursor paging, one summary per trace', async () => {
    const root = (i: number, extra: Record<string, unknown> = {}) => ({
      id: `o-${i}`,
      traceId: `t-${i}`,
      startTime: '2025-03-01T10:10:00Z',
      parentObservationId: null,
      type: 'SPAN',
      name: 'handler',
      environment: 'default',
      traceName: 'rag-query',
      tags: ['x'],
      isRootObservation: true,
      ...extra,
    });
    const { fetch, requests } = scriptedFetch((req) => {
      const cursor = req.url.searchParams.get('cursor');
      if (!cursor) return { status: 200, body: { data: [root(1), root(2)], meta: { cursor: 'c2' } } };
      return {
        status: 200,
        body: {
          data: [
            root(2, { id: 'o-2b', parentObservationId: 'o-2' }),
            root(3, { environment: 'langfuse-prompt-experiment' }),
          ],
          meta: {},
        },
      };
    });
    const http = createLangfuseHttp({ ...keys, fetch });
    const got = await collect(
      listTraces(http, { generation: 'v4', from, to, filters: filtersFromConfig(parseConfig({})) }),
    );
    expect(got).toEqual([
      { id: 't-1', name: 'rag-query', timestamp: '2025-03-01T10:10:00.000Z', environment: 'default', tags: ['x'] },
      { id: 't-2', name: 'rag-query', timestamp: '2025-03-01T10:10:00.000Z', environment: 'default', tags: ['x'] },
    ]);
    const q = requests[0]!.url.searchParams;
    expect(q.get('isRootObservation')).toBe('true');
    expect(q.get('limit')).toBe('1000');
    expect(q.get('fields')).toBe('core,basic,trace_context');
    expect(q.get('fromStartTime')).toBe(from.toISOString());
    expect(requests[1]!.url.searchParams.get('cursor')).toBe('c2');
  });
});

describe('getTrace', () => {
  it('v3: normalises the trace and its observations, parsing JSON-looking strings', async () => {
    const { fetch } = scriptedFetch(() => ({
      status: 200,
      body: {
        id: 't-1',
        name: 'rag',
        timestamp: '2025-03-01T10:00:00Z',
        environment: 'default',
        tags: ['a'],
        input: '{"question":"q?"}',
        output: 'plain answer',
        metadata: null,
        observations: [
          {
            id: 'b',
            parentObservationId: 'a',
            type: 'GENERATION',
            name: 'llm',
            startTime: '2025-03-01T10:00:02Z',
            input: '[{"role":"user","content":"hi"}]',
            output: { content: 'x' },
            metadata: {},
          },
          {
            id: 'a',
            parentObservationId: null,
            type: 'SPAN',
            name: 'root',
            startTime: '2025-03-01T10:00:01Z',
            input: null,
            output: null,
            metadata: null,
          },
        ],
        scores: [],
        htmlPath: '/x',
      },
    }));
    const http = createLangfuseHttp({ ...keys, fetch });
    const trace = await getTrace(http, 't-1', 'v3');
    expect(trace?.input).toEqual({ question: 'q?' });
    expect(trace?.output).toBe('plain answer');
    expect(trace?.timestamp).toBe('2025-03-01T10:00:00.000Z');
    expect(trace?.observations.map((o) => o.id)).toEqual(['a', 'b']);
    expect(trace?.observations[1]!.input).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('v3: 404 is null', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 404, body: { message: 'Trace not found' } }));
    expect(await getTrace(createLangfuseHttp({ ...keys, fetch }), 'nope', 'v3')).toBeNull();
  });

  it('v4: assembles the trace from its observations, the logical root giving name, IO and timestamp', async () => {
    const { fetch, requests } = scriptedFetch(() => ({
      status: 200,
      body: {
        data: [
          {
            id: 'g',
            traceId: 't-9',
            parentObservationId: 'r',
            type: 'GENERATION',
            name: 'ChatOpenAI',
            startTime: '2025-03-01T10:00:03Z',
            input: '{"messages":[]}',
            output: 'The answer.',
            metadata: null,
            environment: 'prod',
            isRootObservation: false,
          },
          {
            id: 'r',
            traceId: 't-9',
            parentObservationId: null,
            type: 'CHAIN',
            name: 'RunnableSequence',
            startTime: '2025-03-01T10:00:01Z',
            input: '{"question":"Why?"}',
            output: '"Because."',
            metadata: '{"k":1}',
            environment: 'prod',
            traceName: 'qa',
            tags: ['t'],
            isRootObservation: true,
          },
        ],
        meta: {},
      },
    }));
    const trace = await getTrace(createLangfuseHttp({ ...keys, fetch }), 't-9', 'v4');
    expect(trace).toMatchObject({
      id: 't-9',
      name: 'qa',
      timestamp: '2025-03-01T10:00:01.000Z',
      environment: 'prod',
      input: { question: 'Why?' },
      output: 'Because.',
      metadata: { k: 1 },
      tags: ['t'],
    });
    expect(trace?.observations.map((o) => o.id)).toEqual(['r', 'g']);
    expect(trace?.observations[1]!.output).toBe('The answer.');
    const q = requests[0]!.url.searchParams;
    expect(q.get('traceId')).toBe('t-9');
    expect(q.get('fields')).toContain('io');
  });

  it('v4: no observations is null', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 200, body: { data: [], meta: {} } }));
    expect(await getTrace(createLangfuseHttp({ ...keys, fetch }), 't', 'v4')).toBeNull();
  });
});

describe('detectApiGeneration', () => {
  it('v3 when the traces API answers, v4 when it 404s and v2 observations answer', async () => {
    const v3 = scriptedFetch(() => ({ status: 200, body: { data: [], meta: {} } }));
    expect(await detectApiGeneration(createLangfuseHttp({ ...keys, fetch: v3.fetch }))).toBe('v3');
    const v4 = scriptedFetch((req) =>
      req.url.pathname === '/api/public/traces'
        ? { status: 404, body: {} }
        : { status: 200, body: { data: [], meta: {} } },
    );
    expect(await detectApiGeneration(createLangfuseHttp({ ...keys, fetch: v4.fetch }))).toBe('v4');
  });

  it('honours an override without probing, and reports bad keys and a wrong base URL', async () => {
    const none = scriptedFetch(() => ({ status: 500 }));
    expect(await detectApiGeneration(createLangfuseHttp({ ...keys, fetch: none.fetch }), 'v4')).toBe('v4');
    expect(none.requests).toHaveLength(0);
    const unauthorized = scriptedFetch(() => ({ status: 401, body: {} }));
    await expect(detectApiGeneration(createLangfuseHttp({ ...keys, fetch: unauthorized.fetch }))).rejects.toMatchObject(
      { status: 401 },
    );
    const nothing = scriptedFetch(() => ({ status: 404, body: {} }));
    await expect(detectApiGeneration(createLangfuseHttp({ ...keys, fetch: nothing.fetch }))).rejects.toBeInstanceOf(
      LangfuseApiError,
    );
  });
});

describe('environment filters', () => {
  it('excludes langfuse-*, sdk-experiment and the own environment; an explicit include wins', () => {
    const f = filtersFromConfig(parseConfig({ langfuse: { ownEnvironment: 'rw' } }));
    expect(environmentAllowed('default', f)).toBe(true);
    expect(environmentAllowed('langfuse-evaluation', f)).toBe(false);
    expect(environmentAllowed('sdk-experiment', f)).toBe(false);
    expect(environmentAllowed('rw', f)).toBe(false);
    expect(environmentAllowed('sdk-experiment', { ...f, environments: ['sdk-experiment'] })).toBe(true);
    expect(environmentAllowed('default', { ...f, environments: ['prod-*'] })).toBe(false);
    expect(environmentAllowed('prod-eu', { ...f, environments: ['prod-*'] })).toBe(true);
  });

  it('never takes ragwatch’s own environment (its judge call traces), not even when named or matched by a pattern', () => {
    const named = filtersFromConfig(parseConfig({ online: { filters: { environments: ['ragwatch', 'production'] } } }));
    expect(environmentAllowed('ragwatch', named)).toBe(false);
    expect(environmentAllowed('production', named)).toBe(true);
    const wildcard = filtersFromConfig(
      parseConfig({ online: { filters: { environments: ['*'], excludeEnvironments: [] } } }),
    );
    expect(environmentAllowed('ragwatch', wildcard)).toBe(false);
    expect(environmentAllowed('default', wildcard)).toBe(true);
  });

  it('refuses an own environment Langfuse would not store as given (empty, upper case, langfuse-*)', () => {
    for (const ownEnvironment of ['', 'RagWatch', 'langfuse-ragwatch', 'a b', 'x'.repeat(41)]) {
      expect(() => parseConfig({ langfuse: { ownEnvironment } }), JSON.stringify(ownEnvironment)).toThrow(
        /langfuse\.ownEnvironment/,
      );
    }
    expect(parseConfig({ langfuse: { ownEnvironment: 'ragwatch-eval_2' } }).langfuse.ownEnvironment).toBe(
      'ragwatch-eval_2',
    );
  });
});

describe('tag exclusion (online.filters.excludeTags)', () => {
  it.each(['v3', 'v4'] as const)(
    "%s: leaves out the weekly run's tagged traces by default and tells onExcluded of each",
    async (generation) => {
      const rows = [
        { id: 't-1', tags: [] },
        { id: 't-2', tags: ['ragwatch-experiment', 'eu'] },
        { id: 't-3', tags: ['canary'] },
        // Dropped for its environment first: no exclusion to count.
        { id: 't-4', tags: ['ragwatch-experiment'], environment: 'sdk-experiment' },
      ];
      const { fetch } = scriptedFetch(() => ({
        status: 200,
        body:
          generation === 'v3'
            ? { data: rows.map((r, i) => v3Trace(i, r)), meta: { page: 1, limit: 100, totalItems: 4, totalPages: 1 } }
            : {
                data: rows.map((r) => ({
                  id: `o-${r.id}`,
                  traceId: r.id,
                  startTime: '2025-03-01T10:10:00Z',
                  parentObservationId: null,
                  type: 'SPAN',
                  name: 'rag',
                  environment: r.environment ?? 'default',
                  tags: r.tags,
                  isRootObservation: true,
                })),
                meta: {},
              },
      }));
      const http = createLangfuseHttp({ ...keys, fetch });
      const list = async (config: Record<string, unknown>) => {
        const excluded: string[] = [];
        const got = await collect(
          listTraces(http, {
            generation,
            from,
            to,
            filters: filtersFromConfig(parseConfig(config)),
            onExcluded: (t, reason) => excluded.push(`${t.id}:${reason}`),
          }),
        );
        return { ids: got.map((t) => t.id), excluded };
      };
      expect(await list({})).toEqual({ ids: ['t-1', 't-3'], excluded: ['t-2:excluded_tag'] });
      expect(await list({ online: { filters: { excludeTags: [] } } })).toEqual({
        ids: ['t-1', 't-2', 't-3'],
        excluded: [],
      });
      expect(await list({ online: { filters: { excludeTags: ['can*'] } } })).toEqual({
        ids: ['t-1', 't-2'],
        excluded: ['t-3:excluded_tag'],
      });
    },
  );
});

describe('listing streams', () => {
  it('fetches a page only when the consumer gets to it', async () => {
    const { fetch, requests } = scriptedFetch((req) => {
      const page = Number(req.url.searchParams.get('page'));
      return {
        status: 200,
        body: {
          data: Array.from({ length: 100 }, (_, i) => v3Trace(page * 1000 + i)),
          meta: { page, limit: 100, totalItems: 100_000, totalPages: 1000 },
        },
      };
    });
    const http = createLangfuseHttp({ ...keys, fetch });
    let seen = 0;
    for await (const _t of listTraces(http, { generation: 'v3', from, to })) {
      if (++seen === 150) break;
    }
    expect(requests).toHaveLength(2);
  });
});
