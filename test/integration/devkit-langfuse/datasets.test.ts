import { afterEach, describe, expect, it } from 'vitest';
import { noRetry, startHarness, tracingTo, type Harness } from './harness.js';
import { stableExperimentId } from '@ragwatch/devkit/langfuse/index.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function seedGoldenSet(h: Harness, size: number): Promise<string[]> {
  await h.client.api.datasets.create({ name: 'golden/es', description: 'golden set', metadata: { owner: 'qa' } });
  const ids: string[] = [];
  for (let i = 0; i < size; i++) {
    const item = await h.client.api.datasetItems.create({
      datasetName: 'golden/es',
      id: `item-${i}`,
      input: { question: `¿Pregunta ${i}?` },
      expectedOutput: { answer: `Respuesta ${i}` },
      metadata: { type: i % 2 ? 'multi-hop' : 'single-hop', split: i < 3 ? 'dev' : 'test' },
    });
    ids.push(item.id);
  }
  return ids;
}

describe('devkit Langfuse: score configs, datasets, runs and experiments', () => {
  it('creates, lists and reads score configs', async () => {
    harness = await startHarness({ personality: 'v3' });
    const numeric = await harness.client.api.scoreConfigs.create({
      name: 'faithfulness',
      dataType: 'NUMERIC',
      minValue: 0,
      maxValue: 1,
      description: 'RAGAS',
    });
    const bool = await harness.client.api.scoreConfigs.create({ name: 'has_pii', dataType: 'BOOLEAN' });
    expect(bool.categories).toEqual([
      { value: 1, label: 'True' },
      { value: 0, label: 'False' },
    ]);
    const list = await harness.client.api.scoreConfigs.get({ page: 1, limit: 1 });
    expect(list.meta).toEqual({ page: 1, limit: 1, totalItems: 2, totalPages: 2 });
    expect(await harness.client.api.scoreConfigs.getById(numeric.id)).toMatchObject({
      name: 'faithfulness',
      minValue: 0,
      maxValue: 1,
      isArchived: false,
    });
    await expect(
      harness.client.api.scoreConfigs.create({ name: 'x'.repeat(36), dataType: 'NUMERIC' }, noRetry),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(harness.client.api.scoreConfigs.getById('missing', noRetry)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(harness.violations).toEqual([]);
  });

  it('serves datasets and items to client.dataset.get, paging by datasetName', async () => {
    harness = await startHarness({ personality: 'v3' });
    await seedGoldenSet(harness, 7);
    const dataset = await harness.client.dataset.get('golden/es', { fetchItemsPageSize: 3 });
    expect(dataset.name).toBe('golden/es');
    expect(dataset.items).toHaveLength(7);
    expect(dataset.items.map((i) => i.id).sort()).toEqual([
      'item-0',
      'item-1',
      'item-2',
      'item-3',
      'item-4',
      'item-5',
      'item-6',
    ]);
    expect(
      harness.exchanges
        .filter((e) => e.method === 'GET' && e.route === '/api/public/dataset-items')
        .map((e) => e.query.page),
    ).toEqual(['1', '2', '3']);
    const item = await harness.client.api.datasetItems.get('item-3');
    expect(item).toMatchObject({
      datasetName: 'golden/es',
      metadata: { type: 'multi-hop', split: 'test' },
      status: 'ACTIVE',
    });
    await expect(harness.client.api.datasets.get('nope', noRetry)).rejects.toMatchObject({ statusCode: 404 });
    expect(harness.violations).toEqual([]);
  });

  it('v3 records dataset runs from POST /dataset-run-items (the experiment runner links each item)', async () => {
    harness = await startHarness({ personality: 'v3' });
    await seedGoldenSet(harness, 4);
    const provider = tracingTo(harness.server);
    const dataset = await harness.client.dataset.get('golden/es');
    const result = await dataset.runExperiment({
      name: 'weekly',
      runName: 'weekly-2025-w10',
      task: async ({ input }) => `respuesta a ${JSON.stringify(input)}`,
      evaluators: [async () => ({ name: 'exact', value: 1 })],
    });
    await provider.forceFlush();
    await provider.shutdown();
    expect(result.itemResults).toHaveLength(4);

    const runs = await harness.client.api.datasets.getRuns('golden/es');
    expect(runs.data.map((r) => r.name)).toEqual(['weekly-2025-w10']);
    const run = await harness.client.api.datasets.getRun('golden/es', 'weekly-2025-w10');
    expect(run.datasetRunItems.map((i) => i.datasetItemId).sort()).toEqual(['item-0', 'item-1', 'item-2', 'item-3']);
    for (const runItem of run.datasetRunItems) expect(harness.server.store.getTrace(runItem.traceId)).toBeDefined();
    expect(harness.server.store.datasetRuns('golden/es')[0]?.items).toHaveLength(4);
    await expect(
      harness.client.api.experiments.list({ fromStartTime: '2020-01-01T00:00:00Z' }, noRetry),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(harness.violations).toEqual([]);
  });

  it('v4 answers dataset-run-items without recording and derives runs from experiment spans', async () => {
    harness = await startHarness({ personality: 'v4' });
    await seedGoldenSet(harness, 3);
    const provider = tracingTo(harness.server);
    const dataset = await harness.client.dataset.get('golden/es');
    const result = await dataset.runExperiment({
      name: 'weekly',
      runName: 'weekly-2025-w11',
      description: 'RAG v2',
      task: async ({ input }) => `respuesta a ${JSON.stringify(input)}`,
    });
    await provider.forceFlush();
    await provider.shutdown();
    const datasetId = (await harness.client.api.datasets.get('golden/es')).id;
    const expectedId = stableExperimentId(harness.server.store.projectId, datasetId, 'weekly-2025-w11');
    expect(result.datasetRunId).toBe(expectedId);

    const experiments = await harness.client.api.experiments.list({
      fromStartTime: '2020-01-01T00:00:00Z',
      fields: 'core,metadata',
    });
    expect(experiments.data).toHaveLength(1);
    expect(experiments.data[0]).toMatchObject({
      id: expectedId,
      name: 'weekly-2025-w11',
      description: 'RAG v2',
      itemCount: 3,
      datasetId,
    });
    const items = await harness.client.api.experiments.listItems({
      fromStartTime: '2020-01-01T00:00:00Z',
      fields: 'core,dataset,io',
    });
    expect(items.data.map((i) => i.experimentItemId).sort()).toEqual(['item-0', 'item-1', 'item-2']);
    expect(items.data.every((i) => i.experimentId === expectedId && i.environment === 'sdk-experiment')).toBe(true);
    expect(JSON.parse(String(items.data[0]?.expectedOutput))).toHaveProperty('answer');

    const runs = harness.server.store.datasetRuns('golden/es');
    expect(runs.map((r) => [r.id, r.name, r.items.length])).toEqual([[expectedId, 'weekly-2025-w11', 3]]);
    await expect(harness.client.api.datasets.getRuns('golden/es', {}, noRetry)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(harness.violations).toEqual([]);
  });

  it('answers projects and health for both personalities', async () => {
    harness = await startHarness({ personality: 'v4', projectId: 'proj-1' });
    const projects = await harness.client.api.projects.get();
    expect(projects.data[0]?.id).toBe('proj-1');
    expect((await harness.client.api.health.health()).status).toBe('OK');
    expect(harness.violations).toEqual([]);
  });
});
