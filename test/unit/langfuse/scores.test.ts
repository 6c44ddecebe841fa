import { describe, expect, it } from 'vitest';
import { createLangfuseHttp } from '../../../src/langfuse/core/http.js';
import { toBatches, type IngestionEvent } from '../../../src/langfuse/resources/ingestion.js';
import {
  ensureScoreConfigs,
  ScoreConfigMismatchError,
  scoreConfigDifference,
  type ScoreConfig,
} from '../../../src/langfuse/resources/score-configs.js';
import { scoreIdFor, writeScores, type ScoreToWrite } from '../../../src/langfuse/resources/scores.js';
import { noSleep, scriptedFetch, type RecordedRequest } from './fake-fetch.js';

const keys = { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk', secretKey: 'sk' };

function score(i: number, extra: Partial<ScoreToWrite> = {}): ScoreToWrite {
  return {
    traceId: `trace-${i}`,
    name: 'ragas-faithfulness',
    value: 0.5,
    timestamp: '2025-03-01T23:59:59.123+02:00',
    configId: 'cfg-1',
    comment: 'ok',
    metadata: { v: 1 },
    environment: 'default',
    ...extra,
  };
}

type Batch = { batch: IngestionEvent[] };
const allOk = (req: RecordedRequest) => ({
  status: 207,
  body: { successes: (req.body as Batch).batch.map((e) => ({ id: e.id, status: 201 })), errors: [] },
});

describe('scoreIdFor', () => {
  it('is deterministic, UUID-shaped and differs per trace and name', () => {
    const a = scoreIdFor('trace-1', 'ragas-faithfulness');
    expect(a).toBe(scoreIdFor('trace-1', 'ragas-faithfulness'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(scoreIdFor('trace-1', 'ragas-answer-relevancy'));
    expect(a).not.toBe(scoreIdFor('trace-2', 'ragas-faithfulness'));
  });
});

describe('writeScores', () => {
  it('sends score-create events with deterministic ids and the trace timestamp, batched by 100', async () => {
    const { fetch, requests } = scriptedFetch(allOk);
    const http = createLangfuseHttp({ ...keys, fetch });
    const scores = Array.from({ length: 250 }, (_, i) => score(i));
    const res = await writeScores(http, scores);
    expect(res.failed).toEqual([]);
    expect(res.written).toHaveLength(250);
    expect(requests.map((r) => (r.body as Batch).batch.length)).toEqual([100, 100, 50]);
    const event = (requests[0]!.body as Batch).batch[0]!;
    expect(event.type).toBe('score-create');
    expect(event.timestamp).toBe('2025-03-01T21:59:59.123Z');
    expect(event.body).toEqual({
      id: scoreIdFor('trace-0', 'ragas-faithfulness'),
      traceId: 'trace-0',
      name: 'ragas-faithfulness',
      value: 0.5,
      dataType: 'NUMERIC',
      configId: 'cfg-1',
      comment: 'ok',
      metadata: { v: 1 },
      environment: 'default',
    });
    expect(event.id).not.toBe(event.body.id);
  });

  it('checks every event status: retries 5xx and unacknowledged events, reports 4xx as final', async () => {
    const { sleep, sleeps } = noSleep();
    let round = 0;
    const { fetch, requests } = scriptedFetch((req) => {
      round++;
      const batch = (req.body as Batch).batch;
      if (round > 1) return allOk(req);
      const [a, b, c] = batch;
      return {
        status: 207,
        body: {
          successes: [{ id: a!.id, status: 201 }],
          errors: [
            { id: b!.id, status: 500, message: 'boom' },
            { id: batch[3]!.id, status: 400, message: 'value out of range' },
          ],
        },
      };
      void c; // c is neither acknowledged nor rejected
    });
    const http = createLangfuseHttp({ ...keys, fetch });
    const res = await writeScores(http, [score(1), score(2), score(3), score(4, { value: 7 })], {
      sleep,
      random: () => 1,
      initialBackoffMs: 10,
    });
    expect(res.written.sort()).toEqual(
      [
        scoreIdFor('trace-1', 'ragas-faithfulness'),
        scoreIdFor('trace-2', 'ragas-faithfulness'),
        scoreIdFor('trace-3', 'ragas-faithfulness'),
      ].sort(),
    );
    expect(res.failed).toEqual([
      {
        id: scoreIdFor('trace-4', 'ragas-faithfulness'),
        traceId: 'trace-4',
        name: 'ragas-faithfulness',
        status: 400,
        message: expect.stringContaining('value out of range'),
        retryable: false,
      },
    ]);
    expect((requests[1]!.body as Batch).batch.map((e) => e.body.traceId)).toEqual(['trace-2', 'trace-3']);
    expect(sleeps).toEqual([10]);
  });

  it('reports every score as retryably failed when Langfuse stays down', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 503 }));
    const http = createLangfuseHttp({ ...keys, fetch, sleep: async () => {}, maxAttempts: 2 });
    const res = await writeScores(http, [score(1), score(2)], { sleep: async () => {}, maxRounds: 2 });
    expect(res.written).toEqual([]);
    expect(res.failed.map((f) => [f.traceId, f.status, f.retryable])).toEqual([
      ['trace-1', 503, true],
      ['trace-2', 503, true],
    ]);
  });

  it('refuses non-finite values without sending them', async () => {
    const { fetch, requests } = scriptedFetch(allOk);
    const res = await writeScores(createLangfuseHttp({ ...keys, fetch }), [score(1, { value: Number.NaN })]);
    expect(requests).toHaveLength(0);
    expect(res.failed[0]).toMatchObject({ traceId: 'trace-1', retryable: false });
  });

  it('splits batches by size as well as count', () => {
    const big = 'x'.repeat(1_000_000);
    const events = Array.from({ length: 5 }, (_, i) => ({ id: String(i), big }));
    const { batches, oversized } = toBatches([...events, { id: 'huge', big: 'y'.repeat(3_100_000) }]);
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
    expect(oversized.map((e) => e.id)).toEqual(['huge']);
  });
});

describe('ensureScoreConfigs', () => {
  it('reuses existing NUMERIC configs and creates the missing ones with range and description', async () => {
    const { fetch, requests } = scriptedFetch((req) => {
      if (req.method === 'GET')
        return {
          status: 200,
          body: {
            data: [
              { id: 'c-old', name: 'ragas-faithfulness', dataType: 'NUMERIC', isArchived: true },
              {
                id: 'c-1',
                name: 'ragas-faithfulness',
                dataType: 'NUMERIC',
                isArchived: false,
                minValue: 0,
                maxValue: 1,
              },
            ],
            meta: { page: 1, limit: 100, totalItems: 2, totalPages: 1 },
          },
        };
      return {
        status: 200,
        body: { id: 'c-2', name: (req.body as { name: string }).name, dataType: 'NUMERIC', isArchived: false },
      };
    });
    const http = createLangfuseHttp({ ...keys, fetch });
    const ids = await ensureScoreConfigs(http, [
      { name: 'ragas-faithfulness', description: 'f', min: 0, max: 1 },
      { name: 'ragas-answer-relevancy', description: 'How relevant the answer is', min: 0, max: 1 },
    ]);
    expect([...ids]).toEqual([
      ['ragas-faithfulness', 'c-1'],
      ['ragas-answer-relevancy', 'c-2'],
    ]);
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'ragas-answer-relevancy',
      dataType: 'NUMERIC',
      minValue: 0,
      maxValue: 1,
      description: 'How relevant the answer is',
    });
  });

  it('rejects names over 35 characters before calling the server', async () => {
    const { fetch, requests } = scriptedFetch(() => ({ status: 200, body: { data: [], meta: {} } }));
    await expect(
      ensureScoreConfigs(createLangfuseHttp({ ...keys, fetch }), [
        { name: 'x'.repeat(36), description: '', min: 0, max: 1 },
      ]),
    ).rejects.toThrow(/35/);
    expect(requests).toHaveLength(0);
  });

  it('refuses, before writing anything, a config of our name that would drop our scores, naming it and the way out', async () => {
    const { fetch, requests } = scriptedFetch(() => ({
      status: 200,
      body: {
        data: [
          { id: 'c-1', name: 'ragas-faithfulness', dataType: 'NUMERIC', isArchived: false, minValue: 1, maxValue: 5 },
        ],
        meta: { page: 1, limit: 100, totalItems: 1, totalPages: 1 },
      },
    }));
    const defs = [
      { name: 'ragas-answer-relevancy', description: 'r', min: 0, max: 1, renameKey: 'metrics.scorePrefix' },
      { name: 'ragas-faithfulness', description: 'f', min: 0, max: 1, renameKey: 'metrics.scorePrefix' },
    ];
    const err = await ensureScoreConfigs(createLangfuseHttp({ ...keys, fetch }), defs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScoreConfigMismatchError);
    expect((err as ScoreConfigMismatchError).lines).toEqual([
      'metrics.scorePrefix: score config "ragas-faithfulness" in Langfuse has the range 1 to 5 where ragwatch writes 0 to 1, ' +
        "so Langfuse would drop ragwatch's scores after accepting them; set metrics.scorePrefix to write ragwatch's " +
        'scores under names of their own, or archive that config in Langfuse',
    ]);
    // Nothing created, not even the config that did not clash.
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('scoreConfigDifference', () => {
  const numeric = { name: 's', description: '', min: 0, max: 1 };
  const config = (over: Partial<ScoreConfig>): ScoreConfig => ({
    id: 'c',
    name: 's',
    dataType: 'NUMERIC',
    isArchived: false,
    minValue: 0,
    maxValue: 1,
    categories: null,
    description: null,
    ...over,
  });

  it('takes a config of the same type and range, or with a bound left unset (it drops nothing)', () => {
    expect(scoreConfigDifference(numeric, config({}))).toBeNull();
    expect(scoreConfigDifference(numeric, config({ minValue: null, maxValue: null }))).toBeNull();
    expect(scoreConfigDifference(numeric, config({ maxValue: null }))).toBeNull();
  });

  it('names another range, another data type, missing categories', () => {
    expect(scoreConfigDifference(numeric, config({ maxValue: 100 }))).toBe(
      'has the range 0 to 100 where ragwatch writes 0 to 1',
    );
    expect(scoreConfigDifference(numeric, config({ minValue: 0.5, maxValue: null }))).toBe(
      'has the range 0.5 to ∞ where ragwatch writes 0 to 1',
    );
    expect(scoreConfigDifference(numeric, config({ dataType: 'BOOLEAN' }))).toBe(
      'is BOOLEAN where ragwatch writes NUMERIC',
    );
    const categorical = {
      name: 's',
      description: '',
      dataType: 'CATEGORICAL' as const,
      categories: [
        { value: 0, label: 'no' },
        { value: 1, label: 'yes' },
      ],
    };
    expect(
      scoreConfigDifference(
        categorical,
        config({ dataType: 'CATEGORICAL', minValue: null, maxValue: null, categories: [{ value: 1, label: 'yes' }] }),
      ),
    ).toBe('lacks the categories no (0)');
    expect(
      scoreConfigDifference(
        categorical,
        config({
          dataType: 'CATEGORICAL',
          categories: [
            { value: 0, label: 'no' },
            { value: 1, label: 'yes' },
            { value: 2, label: 'maybe' },
          ],
        }),
      ),
    ).toBeNull();
  });
});
