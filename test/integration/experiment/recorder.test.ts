import { LangfuseClient } from '@langfuse/client';
import { afterEach, describe, expect, it } from 'vitest';
import { seedGoldenDataset } from '@ragwatch/devkit/corpus/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { recordToyTrace } from '@ragwatch/devkit/rag/trace.js';
import { createRunRecorder, type ItemToRecord } from '../../../src/experiment/run-recorder.js';
import { listDatasetItems } from '../../../src/langfuse/resources/datasets.js';
import { createLangfuseHttp, LangfuseApiError, type LangfuseHttp } from '../../../src/langfuse/core/http.js';

let langfuse: LangfuseServer | undefined;
afterEach(async () => {
  await langfuse?.close();
  langfuse = undefined;
});

async function setUp(personality: 'v3' | 'v4') {
  langfuse = await startLangfuseServer({ personality, host: '127.0.0.1', port: 0 });
  await seedGoldenDataset(
    new LangfuseClient({ baseUrl: langfuse.url, publicKey: langfuse.publicKey, secretKey: langfuse.secretKey }),
  );
  const calls: string[] = [];
  const http = createLangfuseHttp({
    baseUrl: langfuse.url,
    publicKey: langfuse.publicKey,
    secretKey: langfuse.secretKey,
    maxAttempts: 2,
    sleep: async () => {},
    onRequest: (e) => calls.push(e.route),
  });
  const items = [];
  for await (const item of listDatasetItems(http, 'rag-golden')) items.push(item);
  return { server: langfuse, http, calls, items: items.slice(0, 6) };
}

function toRecord(item: ItemToRecord['item'], serviceTraceId: string | null = null): ItemToRecord {
  return {
    item,
    question: `q ${item.id}`,
    answer: 'a',
    contexts: ['c1'],
    serviceTraceId,
    startMs: 1_700_000_000_000,
    endMs: 1_700_000_001_000,
  };
}

function recorder(http: LangfuseHttp, generation: 'v3' | 'v4', waits: number[] = []) {
  return createRunRecorder({
    http,
    generation,
    datasetId: 'ds',
    runName: 'run-1',
    description: 'd',
    metadata: { source: 'ragwatch' },
    flushEvery: 4,
    sleep: async (ms) => void waits.push(ms),
  });
}

describe('the run recorder (v3)', () => {
  it('links each item only after its trace was accepted; a service trace that never arrives is replaced by ragwatch’s', async () => {
    const { server, http, calls, items } = await setUp('v3');
    const service = await recordToyTrace(
      { baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey },
      { question: 'q', answer: 'a', contexts: [], startMs: 0, endMs: 1 },
    );
    const waits: number[] = [];
    const input = [
      toRecord(items[0]!, service),
      toRecord(items[1]!, 'f'.repeat(32)),
      ...items.slice(2).map((i) => toRecord(i)),
    ];
    const run = await recorder(http, 'v3', waits).record(input, { complete: true });
    expect(run.items.size).toBe(items.length);
    expect(run.items.get(items[0]!.id)).toMatchObject({ traceId: service, serviceTrace: true });
    const replaced = run.items.get(items[1]!.id)!;
    expect(replaced.serviceTrace).toBe(false);
    expect(replaced.traceId).not.toBe('f'.repeat(32));
    // The missing service trace was looked for again after each wait (injected), then given up on.
    expect(waits).toEqual([2_000, 5_000]);
    const stored = server.store.datasetRuns('rag-golden').find((r) => r.name === 'run-1')!;
    expect(stored.id).toBe(run.datasetRunId);
    expect(stored.items).toHaveLength(items.length);
    for (const link of stored.items) expect(server.store.getTrace(link.traceId), link.datasetItemId).toBeDefined();
    // Every run item came after the export that created its trace: the first export precedes the first own link.
    const firstExport = calls.indexOf('POST /api/public/otel/v1/traces');
    const links = calls.flatMap((c, i) => (c === 'POST /api/public/dataset-run-items' ? [i] : []));
    expect(links.filter((i) => i < firstExport)).toHaveLength(1); // the service trace, read back first
  });

  it('an export Langfuse does not take links nothing of its items', async () => {
    const { server, http, items } = await setUp('v3');
    server.faults.set('POST /api/public/otel/v1/traces', { errorRate: 1, errorStatus: 500 });
    const error = await recorder(http, 'v3')
      .record(
        items.map((i) => toRecord(i)),
        { complete: true },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangfuseApiError);
    expect(server.store.datasetRuns('rag-golden')).toEqual([]);
  });

  it('marks an incomplete run in its metadata', async () => {
    const { server, http, items } = await setUp('v3');
    await recorder(http, 'v3').record(
      items.slice(0, 2).map((i) => toRecord(i)),
      { complete: false },
    );
    expect(server.store.datasetRuns('rag-golden')[0]!.metadata).toEqual({ source: 'ragwatch', incomplete: true });
  });
});

describe('the run recorder (v4)', () => {
  it('sends each item’s experiment spans with its trace, into the service’s trace when it has a W3C id', async () => {
    const { server, http, items } = await setUp('v4');
    const service = 'a'.repeat(32);
    const run = await recorder(http, 'v4').record(
      [toRecord(items[0]!, service), ...items.slice(1).map((i) => toRecord(i, 'not-a-w3c-id'))],
      { complete: false },
    );
    expect(run.items.get(items[0]!.id)).toMatchObject({ traceId: service, serviceTrace: true });
    const stored = server.store.experimentRuns().find((r) => r.name === 'run-1')!;
    expect(stored.id).toBe(run.datasetRunId);
    expect(stored.items).toHaveLength(items.length);
    for (const link of stored.items) expect(server.store.getTrace(link.traceId)).toBeDefined();
    expect(stored.metadata).toMatchObject({ incomplete: true });
  });

  it('nothing is recorded when no item finished', async () => {
    const { server, http } = await setUp('v4');
    expect(await recorder(http, 'v4').record([], { complete: false })).toEqual({
      datasetRunId: null,
      items: new Map(),
    });
    expect(server.store.experimentRuns()).toEqual([]);
  });
});
