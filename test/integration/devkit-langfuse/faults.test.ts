import { afterEach, describe, expect, it } from 'vitest';
import { LangfuseClient } from '@langfuse/client';
import { noRetry, startHarness, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const T0 = '2025-03-10T09:00:00.000Z';

function auth(h: Harness): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${h.server.publicKey}:${h.server.secretKey}`).toString('base64')}` };
}

describe('devkit Langfuse: fault knobs', () => {
  it.each(['v3', 'v4'] as const)(
    'drops scores after answering 207, as Langfuse’s asynchronous validation does (%s): a knob, and a NUMERIC config’s range',
    async (personality) => {
      harness = await startHarness({ personality });
      const config = harness.server.store.createScoreConfig({
        name: 'quality',
        dataType: 'NUMERIC',
        minValue: 1,
        maxValue: 5,
        categories: null,
        description: null,
      });
      harness.server.faults.set('POST /api/public/ingestion', { dropScoresNext: 1 });
      const score = (id: string, value: number, configId?: string) => ({
        id: `event-${id}`,
        type: 'score-create',
        timestamp: T0,
        body: {
          id,
          traceId: 'trace-1',
          name: 'quality',
          value,
          dataType: 'NUMERIC',
          ...(configId ? { configId } : {}),
        },
      });
      const res = await fetch(`${harness.server.url}/api/public/ingestion`, {
        method: 'POST',
        headers: { ...auth(harness), 'content-type': 'application/json' },
        body: JSON.stringify({
          batch: [score('s-1', 3), score('s-2', 3), score('s-3', 0.4, config.id), score('s-4', 4, config.id)],
        }),
      });
      expect(res.status).toBe(207);
      const answer = (await res.json()) as { successes: { id: string }[]; errors: unknown[] };
      // Every score acknowledged...
      expect(answer.successes.map((s) => s.id).sort()).toEqual(['event-s-1', 'event-s-2', 'event-s-3', 'event-s-4']);
      expect(answer.errors).toEqual([]);
      // ...and two of them never exist: the one the knob took, the one outside its config's range.
      expect(
        harness.server.store
          .scores()
          .map((s) => s.id)
          .sort(),
      ).toEqual(['s-2', 's-4']);
      expect(harness.server.store.droppedScores().map((d) => [d.id, d.reason])).toEqual([
        ['s-1', 'dropped by a fault knob after the 207'],
        ['s-3', 'Value 0.4 is below the config minimum 1'],
      ]);
      expect(harness.violations).toEqual([]);
    },
  );

  it('fails the next N requests with 429 and Retry-After, then recovers', async () => {
    harness = await startHarness({ personality: 'v3' });
    harness.server.faults.set('GET /api/public/traces', { failNext: 2, errorStatus: 429, retryAfterSeconds: 7 });
    const first = await fetch(`${harness.server.url}/api/public/traces`, { headers: auth(harness) });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    await expect(harness.client.api.trace.list({}, noRetry)).rejects.toMatchObject({ statusCode: 429 });
    expect((await harness.client.api.trace.list({}, noRetry)).data).toEqual([]);
    // Other routes and methods are untouched.
    expect((await harness.client.api.health.health(noRetry)).status).toBe('OK');
    expect(harness.violations).toEqual([]);
  });

  it('applies an error rate (1.0 = every request) with 500 or 503 until cleared', async () => {
    harness = await startHarness({ personality: 'v4' });
    harness.server.faults.set('/api/public/v2/observations', { errorRate: 1, errorStatus: 500 });
    for (let i = 0; i < 3; i++) {
      await expect(harness.client.api.observations.getMany({}, noRetry)).rejects.toMatchObject({ statusCode: 500 });
    }
    harness.server.faults.set('/api/public/v2/observations', { errorRate: 1, errorStatus: 503, retryAfterSeconds: 2 });
    const res = await fetch(`${harness.server.url}/api/public/v2/observations`, { headers: auth(harness) });
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '2']);
    harness.server.faults.clear();
    expect((await harness.client.api.observations.getMany({}, noRetry)).data).toEqual([]);
    expect(harness.violations).toEqual([]);
  });

  it('adds latency through the injected sleep', async () => {
    const sleeps: number[] = [];
    harness = await startHarness({ personality: 'v3', sleep: async (ms) => void sleeps.push(ms) });
    harness.server.faults.set('/api/public/traces/{traceId}', { latencyMs: 1500 });
    await expect(harness.client.api.trace.get('missing', {}, noRetry)).rejects.toMatchObject({ statusCode: 404 });
    await harness.client.api.trace.list({}, noRetry);
    expect(sleeps).toEqual([1500]);
    expect(harness.violations).toEqual([]);
  });

  it('adds real latency that a client deadline observes', async () => {
    harness = await startHarness({ personality: 'v3' });
    harness.server.faults.set('*', { latencyMs: 3000 });
    const impatient = new LangfuseClient({
      publicKey: harness.server.publicKey,
      secretKey: harness.server.secretKey,
      baseUrl: harness.server.url,
    });
    await expect(impatient.api.trace.list({}, { maxRetries: 0, timeoutInSeconds: 0.2 })).rejects.toThrow(/time/i);
  });

  it('resets the connection of the next request', async () => {
    harness = await startHarness({ personality: 'v3' });
    harness.server.faults.set('POST /api/public/ingestion', { resetNext: 1 });
    const batch = { batch: [{ id: 'e1', type: 'trace-create' as const, timestamp: T0, body: { id: 't1' } }] };
    await expect(harness.client.api.ingestion.batch(batch, noRetry)).rejects.toThrow();
    expect(harness.server.store.traceCount).toBe(0);
    expect(harness.exchanges.at(-1)).toMatchObject({ status: 0, fault: 'reset' });
    const ok = await harness.client.api.ingestion.batch(batch, noRetry);
    expect(ok.successes).toHaveLength(1);
    expect(harness.violations).toEqual([]);
  });

  it('resets connections at a rate (1.0 = always)', async () => {
    harness = await startHarness({ personality: 'v3' });
    harness.server.faults.set('/api/public/health', { resetRate: 1 });
    await expect(fetch(`${harness.server.url}/api/public/health`)).rejects.toThrow();
    await expect(fetch(`${harness.server.url}/api/public/health`)).rejects.toThrow();
  });

  it('read lag hides ingested traces and observations until the injected clock passes it', async () => {
    let now = Date.parse('2025-03-10T09:00:05.000Z');
    harness = await startHarness({ personality: 'v3', now: () => now });
    harness.server.faults.set('/api/public/traces*', { readLagSeconds: 30 });
    await harness.client.api.ingestion.batch({
      batch: [
        { id: 'e1', type: 'trace-create', timestamp: T0, body: { id: 't1', name: 'qa' } },
        { id: 'e2', type: 'span-create', timestamp: T0, body: { id: 'o1', traceId: 't1', startTime: T0 } },
      ],
    });
    expect((await harness.client.api.trace.list({})).data).toEqual([]);
    await expect(harness.client.api.trace.get('t1', {}, noRetry)).rejects.toMatchObject({ statusCode: 404 });
    // The lag is per route: v2 observations has none configured.
    expect((await harness.client.api.observations.getMany({ traceId: 't1' })).data).toHaveLength(1);

    now += 29_000;
    expect((await harness.client.api.trace.list({})).data).toEqual([]);
    now += 2_000;
    expect((await harness.client.api.trace.list({})).data.map((t) => t.id)).toEqual(['t1']);
    expect((await harness.client.api.trace.get('t1')).observations.map((o) => o.id)).toEqual(['o1']);
    expect(harness.violations).toEqual([]);
  });

  it('read lag set on the write route hides what it writes from every read route', async () => {
    let now = Date.parse('2025-03-10T09:00:00.000Z');
    harness = await startHarness({ personality: 'v4', now: () => now });
    harness.server.faults.set('POST /api/public/otel/v1/traces', { readLagSeconds: 60 });
    const auth = Buffer.from(`${harness.server.publicKey}:${harness.server.secretKey}`).toString('base64');
    const nanos = (BigInt(now) * 1_000_000n).toString();
    const res = await fetch(`${harness.server.url}/api/public/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: 'ab'.repeat(16),
                    spanId: 'cd'.repeat(8),
                    name: 'late',
                    startTimeUnixNano: nanos,
                    endTimeUnixNano: nanos,
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect((await harness.client.api.observations.getMany({})).data).toEqual([]);
    now += 60_000;
    expect((await harness.client.api.observations.getMany({})).data.map((o) => o.name)).toEqual(['late']);
    expect(harness.violations).toEqual([]);
  });

  it('applies the server-wide read lag to v2 observations', async () => {
    let now = Date.parse('2025-03-10T09:00:00.000Z');
    harness = await startHarness({ personality: 'v4', now: () => now, readLagSeconds: 10 });
    harness.server.store.upsertObservation({ id: 'o1', traceId: 't1', startTime: now, name: 'root' });
    expect((await harness.client.api.observations.getMany({})).data).toEqual([]);
    now += 10_000;
    expect((await harness.client.api.observations.getMany({})).data.map((o) => o.id)).toEqual(['o1']);
    expect(harness.violations).toEqual([]);
  });

  it('rejects bad credentials with 401 but keeps health public', async () => {
    harness = await startHarness({ personality: 'v3', publicKey: 'pk-lf-a', secretKey: 'sk-lf-a' });
    const wrong = new LangfuseClient({ publicKey: 'pk-lf-a', secretKey: 'wrong', baseUrl: harness.server.url });
    await expect(wrong.api.trace.list({}, noRetry)).rejects.toMatchObject({ statusCode: 401 });
    expect((await fetch(`${harness.server.url}/api/public/traces`)).status).toBe(401);
    expect((await fetch(`${harness.server.url}/api/public/health`)).status).toBe(200);
    expect(harness.violations).toEqual([]);
  });
});
