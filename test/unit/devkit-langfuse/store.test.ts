import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LangfuseStore, loadStore, saveStore, StoreError } from '@ragwatch/devkit/langfuse/index.js';

const day = (iso: string) => Date.parse(iso);

describe('LangfuseStore', () => {
  it('keys scores by id + name + UTC date of the timestamp', () => {
    const store = new LangfuseStore({ personality: 'v3' });
    const base = { id: 's', name: 'faithfulness', dataType: 'NUMERIC' as const, traceId: 't' };
    store.upsertScore({ ...base, value: 0.1, timestamp: day('2025-01-01T00:00:00Z') });
    store.upsertScore({ ...base, value: 0.2, timestamp: day('2025-01-01T23:59:59Z') });
    expect(store.scores().map((s) => s.value)).toEqual([0.2]);
    store.upsertScore({ ...base, value: 0.3, timestamp: day('2025-01-02T00:00:00Z') });
    store.upsertScore({ ...base, name: 'relevancy', value: 0.4, timestamp: day('2025-01-01T10:00:00Z') });
    expect(store.scores({ traceId: 't' })).toHaveLength(3);
    expect(store.scores({ name: 'relevancy' }).map((s) => s.value)).toEqual([0.4]);
  });

  it('merges traces like Langfuse: absent/null keep values, tags union, metadata merges', () => {
    const store = new LangfuseStore({ personality: 'v3', now: () => 1000 });
    store.upsertTrace({
      id: 't',
      name: 'a',
      tags: ['x'],
      metadata: { a: 1 },
      input: { q: 1 },
      environment: 'Langfuse-Prod',
    });
    store.upsertTrace({ id: 't', name: null, tags: ['y'], metadata: { b: 2 }, output: 'done' });
    expect(store.getTrace('t')).toMatchObject({
      name: 'a',
      tags: ['x', 'y'],
      metadata: { a: 1, b: 2 },
      input: '{"q":1}',
      output: 'done',
      environment: 'prod',
      timestamp: 1000,
    });
  });

  it('indexes observations by trace and re-indexes when the trace changes', () => {
    const store = new LangfuseStore({ personality: 'v3' });
    store.upsertObservation({ id: 'o1', traceId: 'a', startTime: 2 });
    store.upsertObservation({ id: 'o2', traceId: 'a', startTime: 1 });
    expect(store.observationsOfTrace('a').map((o) => o.id)).toEqual(['o2', 'o1']);
    store.upsertObservation({ id: 'o1', traceId: 'b' });
    expect(store.observationsOfTrace('a').map((o) => o.id)).toEqual(['o2']);
    expect(store.observationsOfTrace('b').map((o) => o.id)).toEqual(['o1']);
  });

  it('refuses dataset items for unknown datasets and ids reused across datasets', () => {
    const store = new LangfuseStore({ personality: 'v3' });
    expect(() => store.createDatasetItem({ datasetName: 'nope', input: 1 })).toThrow(StoreError);
    store.createDataset({ name: 'a' });
    store.createDataset({ name: 'b' });
    store.createDatasetItem({ datasetName: 'a', id: 'i1', input: 1 });
    expect(() => store.createDatasetItem({ datasetName: 'b', id: 'i1', input: 2 })).toThrow(/another dataset/);
    expect(store.createDatasetItem({ datasetName: 'a', id: 'i1', input: 3 }).input).toBe(3);
  });

  it('round-trips through a JSON snapshot', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lf-store-')), 'state.json');
    const store = new LangfuseStore({ personality: 'v3' });
    store.upsertTrace({ id: 't', name: 'n', timestamp: 5 });
    store.upsertObservation({ id: 'o', traceId: 't', startTime: 5 });
    store.upsertScore({ id: 's', name: 'x', value: 1, dataType: 'NUMERIC', traceId: 't', timestamp: 5 });
    store.createScoreConfig({
      name: 'x',
      dataType: 'NUMERIC',
      minValue: 0,
      maxValue: 1,
      categories: null,
      description: null,
    });
    store.createDataset({ name: 'd' });
    store.createDatasetItem({ datasetName: 'd', id: 'i', input: 'q' });
    store.recordDatasetRunItem({ runName: 'r', datasetItemId: 'i', traceId: 't' });
    saveStore(store, path);
    const copy = new LangfuseStore({ personality: 'v3' });
    loadStore(copy, path);
    expect(copy.snapshot()).toEqual(store.snapshot());
    expect(copy.observationsOfTrace('t')).toHaveLength(1);
    expect(copy.scores({ traceId: 't' })).toHaveLength(1);
    expect(copy.datasetRuns('d')[0]?.items).toHaveLength(1);
  });
  it('lists queues and queue items in creation order, also within one millisecond and across a snapshot', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lf-store-')), 'state.json');
    const store = new LangfuseStore({ personality: 'v3', now: () => 1_700_000_000_000 });
    const names = Array.from({ length: 12 }, (_, i) => `queue-${i}`);
    for (const name of names) store.annotationQueues.createQueue({ name, scoreConfigIds: [] });
    expect(store.annotationQueues.queues().map((q) => q.name)).toEqual(names);
    const queue = store.annotationQueues.queues()[0]!.id;
    const objects = Array.from({ length: 20 }, (_, i) => `trace-${i}`);
    for (const objectId of objects) store.annotationQueues.addItem(queue, { objectId, objectType: 'TRACE' });
    expect(store.annotationQueues.items(queue).map((i) => i.objectId)).toEqual(objects);

    saveStore(store, path);
    const copy = new LangfuseStore({ personality: 'v3', now: () => 1_700_000_000_000 });
    loadStore(copy, path);
    copy.annotationQueues.addItem(queue, { objectId: 'trace-after-restart', objectType: 'TRACE' });
    expect(copy.annotationQueues.items(queue).map((i) => i.objectId)).toEqual([...objects, 'trace-after-restart']);
  });
});
