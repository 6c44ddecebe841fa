import { LangfuseClient } from '@langfuse/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addQueueItem,
  assignQueue,
  ensureAnnotationQueue,
  getAnnotationQueue,
  listQueueItems,
  removeQueueItem,
  unassignQueue,
  updateQueueItem,
} from '../../../src/langfuse/resources/annotation-queues.js';
import { createAnnotationScore, listAnnotationScores } from '../../../src/langfuse/resources/annotation-scores.js';
import {
  createDataset,
  createDatasetItem,
  getDatasetItem,
  listDatasetItems,
  listDatasetNames,
} from '../../../src/langfuse/resources/datasets.js';
import { ensureScoreConfigs, listScoreConfigs } from '../../../src/langfuse/resources/score-configs.js';
import { writeTraces } from '../../../src/langfuse/resources/trace-writes.js';
import { startStand, type Stand } from './harness.js';

let stand: Stand | undefined;
afterEach(async () => {
  await stand?.close();
  stand = undefined;
});

const REVIEW = [
  { value: 1, label: 'accept' },
  { value: 2, label: 'reject-trivial' },
  { value: 3, label: 'reject-parametric' },
  { value: 4, label: 'reject-ambiguous' },
];

const traceId = (n: number) => n.toString(16).padStart(32, 'a');

describe.each(['v3', 'v4'] as const)('annotation queues and ANNOTATION scores on Langfuse %s', (personality) => {
  it('creates a queue over categorical and text configs, queues traces, reads people’s scores back', async () => {
    stand = await startStand({ personality });
    const { http, server } = stand;
    const defs = [
      { name: 'golden-review', description: 'decision', dataType: 'CATEGORICAL' as const, categories: REVIEW },
      { name: 'golden-review-note', description: 'free comment', dataType: 'TEXT' as const },
      { name: 'human-faithfulness', description: '0 to 1', min: 0, max: 1 },
    ];
    const ids = await ensureScoreConfigs(http, defs);
    expect(await ensureScoreConfigs(http, defs)).toEqual(ids);
    const configs = await listScoreConfigs(http);
    expect(configs.find((c) => c.name === 'golden-review')).toMatchObject({
      dataType: 'CATEGORICAL',
      categories: REVIEW,
    });
    expect(configs.filter((c) => c.name === 'golden-review')).toHaveLength(1);

    const scoreConfigIds = [ids.get('golden-review')!, ids.get('golden-review-note')!];
    const scoreConfigs = new Map([
      ['golden-review', scoreConfigIds[0]!],
      ['golden-review-note', scoreConfigIds[1]!],
    ]);
    const queue = await ensureAnnotationQueue(http, {
      name: 'golden review: rag-golden',
      description: 'review',
      scoreConfigs,
    });
    expect((await ensureAnnotationQueue(http, { name: 'golden review: rag-golden', scoreConfigs })).id).toBe(queue.id);
    expect(await getAnnotationQueue(http, queue.id)).toMatchObject({
      name: 'golden review: rag-golden',
      scoreConfigIds,
    });
    expect(await getAnnotationQueue(http, 'missing')).toBeNull();

    await writeTraces(
      http,
      [1, 2, 3].map((n) => ({
        id: traceId(n),
        name: 'ragwatch-golden-review',
        environment: 'ragwatch',
        input: { question: `¿Pregunta ${n}?`, stratum: 'single-hop' },
        output: { reference: `Respuesta ${n}.` },
        metadata: { candidate_id: `c${n}` },
        timestampMs: Date.parse('2026-03-02T10:00:00Z'),
        observations: [{ name: 'source-chunks', type: 'retriever', output: [{ id: 'doc-1', text: 'texto' }] }],
      })),
    );
    expect(server.store.getTrace(traceId(2))).toMatchObject({
      name: 'ragwatch-golden-review',
      environment: 'ragwatch',
    });
    const items = [];
    for (const n of [1, 2, 3])
      items.push(await addQueueItem(http, queue.id, { objectId: traceId(n), objectType: 'TRACE' }));
    expect((await listQueueItems(http, queue.id)).map((i) => i.objectId)).toEqual([traceId(1), traceId(2), traceId(3)]);

    // A reviewer: a decision and a note on two traces, each item then completed.
    await createAnnotationScore(http, {
      traceId: traceId(1),
      name: 'golden-review',
      value: 'accept',
      configId: ids.get('golden-review')!,
      queueId: queue.id,
    });
    await createAnnotationScore(http, {
      traceId: traceId(2),
      name: 'golden-review',
      value: 'reject-trivial',
      configId: ids.get('golden-review')!,
      queueId: queue.id,
      comment: 'any model knows this',
    });
    await createAnnotationScore(http, {
      traceId: traceId(2),
      name: 'golden-review-note',
      value: 'too easy',
      configId: ids.get('golden-review-note')!,
      queueId: queue.id,
    });
    await updateQueueItem(http, queue.id, items[0]!.id, { status: 'COMPLETED' });
    await updateQueueItem(http, queue.id, items[1]!.id, { status: 'COMPLETED' });
    // An API score on the same trace is not an annotation.
    await http.request({
      method: 'POST',
      path: '/api/public/scores',
      body: { traceId: traceId(3), name: 'golden-review-note', value: 'bot', dataType: 'TEXT' },
    });

    expect((await listQueueItems(http, queue.id, { status: 'COMPLETED' })).map((i) => i.objectId)).toEqual([
      traceId(1),
      traceId(2),
    ]);
    const scores = await listAnnotationScores(http, personality, {
      queueId: queue.id,
      names: ['golden-review', 'golden-review-note'],
    });
    const byTrace = (id: string) =>
      scores.filter((s) => s.traceId === id).map((s) => [s.name, s.stringValue, s.source, s.queueId]);
    expect(byTrace(traceId(1))).toEqual([['golden-review', 'accept', 'ANNOTATION', queue.id]]);
    expect(byTrace(traceId(2)).sort()).toEqual([
      ['golden-review', 'reject-trivial', 'ANNOTATION', queue.id],
      ['golden-review-note', 'too easy', 'ANNOTATION', queue.id],
    ]);
    // v2 scores carry the category's number too; v3 scores only the label.
    const value = personality === 'v3' ? 2 : null;
    expect(scores.find((s) => s.stringValue === 'reject-trivial')).toMatchObject({
      value,
      comment: 'any model knows this',
      configId: ids.get('golden-review'),
    });
    expect(byTrace(traceId(3))).toEqual([]);

    await assignQueue(http, queue.id, 'user-1');
    await unassignQueue(http, queue.id, 'user-1');
    await removeQueueItem(http, queue.id, items[2]!.id);
    expect(await listQueueItems(http, queue.id)).toHaveLength(2);
    expect(stand.violations).toEqual([]);
  });

  it('serves the queue API to the real @langfuse/client, and an ANNOTATION score needs its config', async () => {
    stand = await startStand({ personality });
    const client = new LangfuseClient({
      baseUrl: stand.server.url,
      publicKey: stand.server.publicKey,
      secretKey: stand.server.secretKey,
    });
    const config = await client.api.scoreConfigs.create({
      name: 'golden-review',
      dataType: 'CATEGORICAL',
      categories: REVIEW,
    });
    const queue = await client.api.annotationQueues.createQueue({ name: 'q', scoreConfigIds: [config.id] });
    const item = await client.api.annotationQueues.createQueueItem(queue.id, {
      objectId: traceId(9),
      objectType: 'TRACE',
    });
    expect(item).toMatchObject({ queueId: queue.id, status: 'PENDING', completedAt: null });
    const done = await client.api.annotationQueues.updateQueueItem(queue.id, item.id, { status: 'COMPLETED' });
    expect(done.completedAt).not.toBeNull();
    expect((await client.api.annotationQueues.listQueues()).data.map((q) => q.id)).toEqual([queue.id]);
    expect(await client.api.annotationQueues.createQueueAssignment(queue.id, { userId: 'u' })).toEqual({
      userId: 'u',
      queueId: queue.id,
      projectId: stand.server.store.projectId,
    });
    await expect(
      client.api.annotationQueues.createQueue({ name: 'bad', scoreConfigIds: ['nope'] }, { maxRetries: 0 }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      client.api.scores.create(
        { traceId: traceId(9), name: 'golden-review', value: 'accept', source: 'ANNOTATION' },
        { maxRetries: 0 },
      ),
    ).rejects.toMatchObject({ statusCode: 400 });
    await client.api.scores.create({
      traceId: traceId(9),
      name: 'golden-review',
      value: 'accept',
      source: 'ANNOTATION',
      configId: config.id,
      queueId: queue.id,
    });
    if (personality === 'v4') {
      const page = await client.api.scoresV3.getManyV3({ source: 'ANNOTATION', fields: 'annotation,subject' });
      expect(page.data).toMatchObject([
        { name: 'golden-review', value: 'accept', queueId: queue.id, subject: { kind: 'trace', id: traceId(9) } },
      ]);
      const legacy = await stand.http.request({ method: 'GET', path: '/api/public/v2/scores', accept: [404] });
      expect(legacy.status).toBe(404);
    } else {
      const page = await client.api.scores.getMany({ source: 'ANNOTATION' });
      expect(page.data).toMatchObject([
        { name: 'golden-review', stringValue: 'accept', value: 1, queueId: queue.id, traceId: traceId(9) },
      ]);
    }
    expect(stand.violations).toEqual([]);
  });

  it('writes dataset items with a status, reads one by id, and lists dataset names', async () => {
    stand = await startStand({ personality });
    const { http } = stand;
    await createDataset(http, { name: 'rag-golden-candidates' });
    await createDataset(http, { name: 'rag-golden-v1' });
    await createDatasetItem(http, {
      datasetName: 'rag-golden-candidates',
      id: 'c1',
      input: { question: 'q?' },
      expectedOutput: { answer: 'a' },
    });
    await createDatasetItem(http, {
      datasetName: 'rag-golden-candidates',
      id: 'c2',
      input: { question: 'q2?' },
      status: 'ARCHIVED',
      metadata: { reason: 'trivial' },
    });
    expect(await getDatasetItem(http, 'c2')).toMatchObject({ status: 'ARCHIVED', metadata: { reason: 'trivial' } });
    expect(await getDatasetItem(http, 'nope')).toBeNull();
    const active = [];
    for await (const item of listDatasetItems(http, 'rag-golden-candidates')) active.push(item.id);
    expect(active).toEqual(['c1']);
    expect((await listDatasetNames(http)).sort()).toEqual(['rag-golden-candidates', 'rag-golden-v1']);
    expect(stand.violations).toEqual([]);
  });
});
