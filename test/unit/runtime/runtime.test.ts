import { describe, expect, it } from 'vitest';
import { judgeClientsFromConfig, judgeDepsOf } from '../../../src/judge/index.js';
import { isSpanId, isTraceId, langfuseDepsOf, langfuseHttpFromConfig } from '../../../src/langfuse/index.js';
import {
  createRuntime,
  noMetrics,
  recordingMetrics,
  silentLogger,
  systemClock,
  testRuntime,
  withMetrics,
} from '../../../src/runtime/index.js';
import { parseConfig } from '../../helpers/config.js';
import { scriptedFetch } from '../langfuse/fake-fetch.js';

describe('testRuntime', () => {
  it('runs on a clock that moves only when told', () => {
    const rt = testRuntime({ now: Date.parse('2025-06-01T00:00:00Z') });
    expect(rt.clock.now()).toBe(Date.parse('2025-06-01T00:00:00Z'));
    expect(rt.clock.now()).toBe(Date.parse('2025-06-01T00:00:00Z'));
    const own = { now: () => 42 };
    expect(testRuntime({ now: own }).clock).toBe(own);
  });

  it('draws the same numbers and ids from the same seed, other ones from another', () => {
    const draw = (seed: number) => {
      const rt = testRuntime({ seed });
      return [rt.random(), rt.random(), rt.ids.traceId(), rt.ids.spanId(), rt.ids.uuid()];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const [a, b, traceId, spanId, uuid] = draw(7) as [number, number, string, string, string];
    for (const x of [a, b]) expect(x >= 0 && x < 1).toBe(true);
    expect(isTraceId(traceId)).toBe(true);
    expect(isSpanId(spanId)).toBe(true);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sleeps at once, recording each wait, and still honours an aborted signal', async () => {
    const rt = testRuntime();
    await rt.sleep(60_000);
    await rt.sleep(5);
    expect(rt.sleeps).toEqual([60_000, 5]);
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(rt.sleep(1, aborted)).rejects.toThrow('stop');
  });
});

describe('createRuntime', () => {
  it('is the process: the system clock, crypto ids, no registry unless given one', () => {
    const rt = createRuntime({ logger: silentLogger() });
    expect(rt.clock).toBe(systemClock);
    expect(Math.abs(rt.clock.now() - Date.now())).toBeLessThan(1000);
    expect(isTraceId(rt.ids.traceId())).toBe(true);
    expect(isSpanId(rt.ids.spanId())).toBe(true);
    expect(rt.ids.traceId()).not.toBe(rt.ids.traceId());
    expect(rt.metrics).toBe(noMetrics);
    const metrics = recordingMetrics();
    const daemon = withMetrics(rt, metrics);
    expect(daemon.metrics).toBe(metrics);
    expect({ ...daemon, metrics: rt.metrics }).toEqual(rt);
  });
});

describe('the clients on a runtime', () => {
  it('send through its transport, wait with its sleep and report every request to its registry', async () => {
    const { fetch, requests } = scriptedFetch((_req, i) => (i === 0 ? { status: 503, body: {} } : { status: 200 }));
    const metrics = recordingMetrics();
    const rt = testRuntime({ fetch, metrics });
    const config = parseConfig({ langfuse: { baseUrl: 'http://127.0.0.1:1', maxAttempts: 2 } });
    const http = langfuseHttpFromConfig(config, langfuseDepsOf(rt));
    await http.request({ method: 'GET', path: '/api/public/health', route: 'GET /api/public/health' });
    expect(requests).toHaveLength(2);
    expect(rt.sleeps).toHaveLength(1);
    expect(metrics.langfuseRequests.map((e) => [e.route, e.outcome])).toEqual([
      ['GET /api/public/health', 'server_error'],
      ['GET /api/public/health', 'ok'],
    ]);
  });

  it('hand the judge clients the same edges', () => {
    const rt = testRuntime();
    const deps = judgeDepsOf(rt);
    expect(deps.fetch).toBe(rt.fetch);
    expect(deps.sleep).toBe(rt.sleep);
    expect(deps.random).toBe(rt.random);
    expect(judgeClientsFromConfig(parseConfig({}), deps).judge.model).toBeTruthy();
  });
});
