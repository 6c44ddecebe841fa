import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type FaultKind, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { judgeClientsFromConfig } from '../../../src/judge/index.js';
import { scoreSample } from '../../../src/metrics/index.js';
import { redisSample, scriptRedisExample } from './redis-fixture.js';
import { configSchema } from '../../helpers/config.js';

let server: JudgeServer;

beforeAll(async () => {
  server = await startJudgeServer({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.script.clear();
  server.faults.clear();
  server.requests.length = 0;
  scriptRedisExample(server);
});

/** Only `hang` needs a short deadline (the stand-in never answers); others get room for a loaded machine. */
function deps(kind?: FaultKind, maxAttempts = 3) {
  const timeoutMs = kind === 'hang' ? 1_000 : 15_000;
  const config = configSchema.parse({
    judge: { baseUrl: server.url, timeoutMs, maxAttempts },
    embeddings: { model: server.embeddingModel, timeoutMs, maxAttempts },
  });
  // Backoff sleeps are injected as no-ops.
  return { options: config.metrics, ...judgeClientsFromConfig(config, { sleep: async () => {} }) };
}

const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');
const embeddingRequests = () => server.requests.filter((r) => r.path === '/v1/embeddings');

const chatFaults: FaultKind[] = [
  'malformed_json',
  'wrong_schema',
  'truncated',
  'http_500',
  'http_503',
  'hang',
  'reset',
];
/** Quirks a tolerant client survives without a retry (the answer is still right). */
const chatQuirks: FaultKind[] = ['fenced_json', 'think_in_content', 'latency'];

describe('judge faults: a retry, then the correct score', () => {
  for (const kind of chatFaults) {
    it(`chat ${kind} → retried → faithfulness 0.75`, async () => {
      server.faults.next(kind, 1, kind === 'latency' ? { ms: 5 } : {});
      const [r] = await scoreSample(redisSample, ['faithfulness'], deps(kind));
      expect(r).toMatchObject({ status: 'scored', value: 0.75 });
      expect(server.faults.counts()[kind]).toBe(1);
      expect(chatRequests()).toHaveLength(2);
      expect(r?.usage?.calls).toBe(2);
    });
  }

  for (const kind of chatQuirks) {
    it(`chat ${kind} → faithfulness 0.75`, async () => {
      server.faults.next(kind, 1, kind === 'latency' ? { ms: 5 } : {});
      const [r] = await scoreSample(redisSample, ['faithfulness'], deps());
      expect(r).toMatchObject({ status: 'scored', value: 0.75 });
      expect(server.faults.counts()[kind]).toBe(1);
    });
  }

  for (const kind of ['malformed_json', 'http_500', 'http_503', 'hang', 'reset'] as FaultKind[]) {
    it(`embeddings ${kind} → retried → answer relevancy ≈ 0.72`, async () => {
      server.faults.next(kind, 1, { route: 'embeddings' });
      const [r] = await scoreSample(redisSample, ['answer_relevancy'], deps(kind));
      expect(r?.status).toBe('scored');
      expect(r?.status === 'scored' && r.value).toBeCloseTo((0.91 + 0.74 + 0.52) / 3, 10);
      expect(embeddingRequests()).toHaveLength(2);
    });
  }
});

describe('a fault that persists across every retry ends as failed, never as a value', () => {
  for (const kind of chatFaults) {
    it(`persistent chat ${kind} → failed`, async () => {
      server.faults.always(kind);
      const results = await scoreSample(
        redisSample,
        ['faithfulness', 'answer_relevancy', 'noise_sensitivity'],
        deps(kind, 2),
      );
      for (const r of results) {
        expect(r.status).toBe('failed');
        expect(r).not.toHaveProperty('value');
        expect(r.status === 'failed' && r.retryable).toBe(true);
      }
      // maxAttempts (2) for the claims step and for the questions step; noise sensitivity shares the failed
      // claims step, so it costs no extra attempts.
      expect(chatRequests()).toHaveLength(2 * 2);
    });
  }

  it('persistent embeddings failure → answer relevancy failed, faithfulness still scored', async () => {
    server.faults.always('http_503', { route: 'embeddings' });
    const [f, ar] = await scoreSample(redisSample, ['faithfulness', 'answer_relevancy'], deps());
    expect(f).toMatchObject({ status: 'scored', value: 0.75 });
    expect(ar).toMatchObject({ status: 'failed', retryable: true });
    expect(embeddingRequests()).toHaveLength(3);
  });

  it('the failed results’ usage counts every attempt the judge received, tokens included', async () => {
    server.faults.always('malformed_json');
    server.faults.always('wrong_count', { route: 'embeddings' });
    const results = await scoreSample(redisSample, ['faithfulness', 'answer_relevancy'], deps(undefined, 3));
    const received = chatRequests();
    expect(received).toHaveLength(2 * 3);
    const sum = (key: 'promptTokens' | 'completionTokens') => received.reduce((n, r) => n + (r.usage?.[key] ?? 0), 0);
    const usage = results.map((r) => r.usage!);
    expect(results.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(usage[0]!.calls + usage[1]!.calls).toBe(6);
    expect(usage[0]!.promptTokens + usage[1]!.promptTokens).toBe(sum('promptTokens'));
    expect(usage[0]!.completionTokens + usage[1]!.completionTokens).toBe(sum('completionTokens'));
    expect(sum('promptTokens')).toBeGreaterThan(0);
  });

  it('embeddings of the wrong count or dimension on every attempt → answer relevancy failed, with the requests counted', async () => {
    for (const kind of ['wrong_count', 'wrong_dimension'] as const) {
      server.faults.clear();
      server.requests.length = 0;
      server.faults.always(kind, { route: 'embeddings' });
      const [ar] = await scoreSample(redisSample, ['answer_relevancy'], deps(undefined, 3));
      expect(ar).toMatchObject({ status: 'failed', retryable: true, usage: { embeddingRequests: 3 } });
      expect(ar?.status === 'failed' && ar.error).toContain('invalid_response');
      expect(ar?.usage?.embeddingTokens).toBe(
        embeddingRequests().reduce((n, r) => n + (r.usage?.promptTokens ?? 0), 0),
      );
    }
  });
});
