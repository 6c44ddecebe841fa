import { afterEach, describe, expect, it } from 'vitest';
import { noRetry, startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const T0 = '2025-03-10T09:00:00.000Z';

function legacyTraceBatch(traceId: string) {
  return [
    {
      id: 'e1',
      type: 'trace-create' as const,
      timestamp: T0,
      body: { id: traceId, name: 'qa', userId: 'u1', input: { q: 'hola' }, tags: ['a'] },
    },
    {
      id: 'e2',
      type: 'span-create' as const,
      timestamp: T0,
      body: {
        id: `${traceId}-ret`,
        traceId,
        name: 'retriever',
        startTime: T0,
        input: 'hola',
        output: [{ pageContent: 'doc' }],
      },
    },
    {
      id: 'e3',
      type: 'generation-create' as const,
      timestamp: T0,
      body: {
        id: `${traceId}-gen`,
        traceId,
        parentObservationId: `${traceId}-ret`,
        name: 'llm',
        startTime: T0,
        model: 'gpt-4o',
        usage: { input: 10, output: 5, total: 15, unit: 'TOKENS' as const },
      },
    },
    {
      id: 'e4',
      type: 'generation-update' as const,
      timestamp: T0,
      body: { id: `${traceId}-gen`, traceId, output: 'adiós', endTime: '2025-03-10T09:00:02.000Z' },
    },
    {
      id: 'e5',
      type: 'span-update' as const,
      timestamp: T0,
      body: { id: `${traceId}-ret`, traceId, endTime: '2025-03-10T09:00:01.000Z' },
    },
    {
      id: 'e6',
      type: 'event-create' as const,
      timestamp: T0,
      body: { id: `${traceId}-evt`, traceId, name: 'cache-hit', startTime: T0 },
    },
    { id: 'e7', type: 'trace-create' as const, timestamp: T0, body: { id: traceId, output: 'adiós', tags: ['b'] } },
  ];
}

describe('devkit Langfuse: POST /api/public/ingestion', () => {
  it('v3 accepts trace/span/generation/event create and update and merges them', async () => {
    harness = await startHarness({ personality: 'v3' });
    const result = await harness.client.api.ingestion.batch({ batch: legacyTraceBatch('t1') });
    expect(result.errors).toEqual([]);
    expect(result.successes.map((s) => s.id).sort()).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
    expect(result.successes.every((s) => s.status === 201)).toBe(true);

    const trace = await harness.client.api.trace.get('t1');
    expect(trace.input).toEqual({ q: 'hola' });
    expect(trace.output).toBe('adiós');
    expect(trace.tags.sort()).toEqual(['a', 'b']);
    expect(trace.timestamp).toBe(T0);
    const gen = trace.observations.find((o) => o.id === 't1-gen');
    expect(gen).toMatchObject({
      type: 'GENERATION',
      model: 'gpt-4o',
      output: 'adiós',
      parentObservationId: 't1-ret',
      endTime: '2025-03-10T09:00:02.000Z',
    });
    expect(gen?.usageDetails).toEqual({ input: 10, output: 5, total: 15 });
    expect(trace.observations.find((o) => o.id === 't1-evt')?.type).toBe('EVENT');
    expect(trace.latency).toBe(2);
    expect(harness.violations).toEqual([]);
  });

  it('answers per-event 400s in the 207 and acknowledges-then-drops events without body.id', async () => {
    harness = await startHarness({ personality: 'v3' });
    const result = await harness.client.api.ingestion.batch({
      batch: [
        {
          id: 'ok',
          type: 'score-create',
          timestamp: T0,
          body: { id: 's1', traceId: 't1', name: 'faithfulness', value: 0.5 },
        },
        {
          id: 'no-body-id',
          type: 'score-create',
          timestamp: T0,
          body: { traceId: 't1', name: 'faithfulness', value: 0.9 },
        },
        {
          id: 'bad-type',
          type: 'score-create',
          timestamp: T0,
          body: { id: 's2', traceId: 't1', name: 'x', value: 'high', dataType: 'NUMERIC' },
        },
        { id: 'bad-time', type: 'trace-create', timestamp: 'yesterday', body: { id: 't9' } },
      ],
    });
    expect(result.successes.map((s) => s.id).sort()).toEqual(['no-body-id', 'ok']);
    expect(result.errors.map((e) => [e.id, e.status])).toEqual([
      ['bad-type', 400],
      ['bad-time', 400],
    ]);
    const scores = harness.server.store.scores({ traceId: 't1' });
    expect(scores.map((s) => [s.id, s.value])).toEqual([['s1', 0.5]]);
    expect(harness.server.store.getTrace('t9')).toBeUndefined();
    expect(harness.violations).toEqual([]);
  });

  it('replaces a score only for the same id + name + UTC date, otherwise adds a visible duplicate', async () => {
    harness = await startHarness({ personality: 'v3' });
    await harness.client.api.ingestion.batch({
      batch: [{ id: 'tr', type: 'trace-create', timestamp: T0, body: { id: 't1', name: 'qa' } }],
    });
    const score = (eventId: string, timestamp: string, name: string, value: number) => ({
      id: eventId,
      type: 'score-create' as const,
      timestamp,
      body: { id: 'score-1', traceId: 't1', name, value },
    });
    await harness.client.api.ingestion.batch({ batch: [score('a', '2025-03-10T10:00:00.000Z', 'faithfulness', 0.2)] });
    await harness.client.api.ingestion.batch({ batch: [score('b', '2025-03-10T23:59:00.000Z', 'faithfulness', 0.7)] });
    let trace = await harness.client.api.trace.get('t1');
    expect(trace.scores.map((s) => ('value' in s ? s.value : null))).toEqual([0.7]);

    await harness.client.api.ingestion.batch({ batch: [score('c', '2025-03-11T00:00:01.000Z', 'faithfulness', 0.9)] });
    await harness.client.api.ingestion.batch({
      batch: [score('d', '2025-03-10T12:00:00.000Z', 'answer_relevancy', 0.4)],
    });
    trace = await harness.client.api.trace.get('t1');
    expect(trace.scores.filter((s) => s.id === 'score-1')).toHaveLength(3);
    expect(harness.violations).toEqual([]);
  });

  it('drops (after acknowledging) a score that breaks its score config, like the Langfuse worker', async () => {
    harness = await startHarness({ personality: 'v3' });
    const config = await harness.client.api.scoreConfigs.create({
      name: 'faithfulness',
      dataType: 'NUMERIC',
      minValue: 0,
      maxValue: 1,
    });
    const result = await harness.client.api.ingestion.batch({
      batch: [
        {
          id: 'in-range',
          type: 'score-create',
          timestamp: T0,
          body: { id: 's1', traceId: 't1', name: 'faithfulness', value: 0.5, configId: config.id },
        },
        {
          id: 'out-of-range',
          type: 'score-create',
          timestamp: T0,
          body: { id: 's2', traceId: 't1', name: 'faithfulness', value: 3, configId: config.id },
        },
      ],
    });
    expect(result.successes).toHaveLength(2);
    expect(harness.server.store.scores().map((s) => s.id)).toEqual(['s1']);
    expect(harness.server.store.droppedScores().map((d) => d.id)).toEqual(['s2']);
    expect(harness.violations).toEqual([]);
  });

  it('v4 accepts only score-create and sdk-log, rejecting other types per event', async () => {
    harness = await startHarness({ personality: 'v4' });
    const result = await harness.client.api.ingestion.batch({
      batch: [
        ...legacyTraceBatch('t1').slice(0, 2),
        {
          id: 'score',
          type: 'score-create',
          timestamp: T0,
          body: { id: 's1', traceId: 't1', name: 'faithfulness', value: 1 },
        },
        { id: 'log', type: 'sdk-log', timestamp: T0, body: { log: 'hello' } },
      ],
    });
    expect(result.successes.map((s) => s.id).sort()).toEqual(['log', 'score']);
    expect(result.errors.map((e) => [e.id, e.status, e.message])).toEqual([
      ['e1', 400, 'Event type not accepted'],
      ['e2', 400, 'Event type not accepted'],
    ]);
    expect(result.errors[0]?.error).toContain('events_only');
    expect(harness.server.store.traceCount).toBe(0);
    expect(harness.server.store.scores()).toHaveLength(1);
    expect(harness.violations).toEqual([]);
  });

  it('answers 413 to a batch over 3.5 MB', async () => {
    harness = await startHarness({ personality: 'v3' });
    const big = 'x'.repeat(3.6 * 1024 * 1024);
    await expect(
      harness.client.api.ingestion.batch(
        { batch: [{ id: 'e', type: 'trace-create', timestamp: T0, body: { id: 't', input: big } }] },
        noRetry,
      ),
    ).rejects.toMatchObject({ statusCode: 413 });
    expect(harness.server.store.traceCount).toBe(0);
    expect(harness.violations).toEqual([]);
  });

  it('POST /api/public/scores writes one score stamped with the server clock', async () => {
    const now = Date.parse('2025-05-01T08:00:00.000Z');
    harness = await startHarness({ personality: 'v4', now: () => now });
    const { id } = await harness.client.api.legacy.scoreV1.create({
      traceId: 't1',
      name: 'helpful',
      value: 'yes',
      dataType: 'CATEGORICAL',
    });
    const [score] = harness.server.store.scores({ id });
    expect(score).toMatchObject({ name: 'helpful', stringValue: 'yes', dataType: 'CATEGORICAL', timestamp: now });
    await expect(
      harness.client.api.legacy.scoreV1.create({ traceId: 't1', name: 'bad', value: 2, dataType: 'BOOLEAN' }, noRetry),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(harness.violations).toEqual([]);
  });
});
