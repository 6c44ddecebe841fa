import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type FaultKind, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import {
  createJudgeClient,
  JudgeCallError,
  type JudgeClientOptions,
  type RequestEvent,
} from '../../../src/judge/index.js';
import { expectedVerdicts, recordingSleep, until, verdictRequest } from './helpers.js';

describe('judge client against the stand-in', () => {
  let server: JudgeServer;
  let events: RequestEvent[];
  let backoff: ReturnType<typeof recordingSleep>;

  beforeEach(async () => {
    server = await startJudgeServer();
    events = [];
    backoff = recordingSleep();
  });
  afterEach(async () => {
    await server.close();
  });

  const client = (extra: Partial<JudgeClientOptions> = {}) =>
    createJudgeClient({
      baseUrl: server.url,
      apiKey: 'secret-key',
      model: server.model,
      maxAttempts: 3,
      timeoutMs: 5000,
      sleep: backoff.sleep,
      random: () => 0.5,
      onRequest: (e) => events.push(e),
      ...extra,
    });

  it('sends a greedy, seeded, strict json_schema request with explicit max_tokens and reads the answer', async () => {
    const result = await client({ disableThinking: true }).structured(verdictRequest());
    expect(result.value).toEqual(expectedVerdicts);
    expect(result.usage.calls).toBe(1);
    expect(result.usage.promptTokens).toBeGreaterThan(20);
    expect(result.usage.completionTokens).toBeGreaterThan(5);
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: server.model,
      temperature: 0,
      seed: 42,
      max_tokens: 400,
      response_format: { type: 'json_schema', json_schema: { name: 'test_verdicts', strict: true } },
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(events).toEqual([expect.objectContaining({ kind: 'chat', outcome: 'ok' })]);
    expect(JSON.stringify(server.requests[0]!.headers)).not.toContain('secret-key');
  });

  const recovering: Array<[FaultKind, string]> = [
    ['malformed_json', 'invalid_json'],
    ['wrong_schema', 'schema_mismatch'],
    ['truncated', 'truncated'],
    ['http_500', 'http_500'],
    ['http_503', 'http_503'],
    ['reset', 'connection'],
  ];
  it.each(recovering)('retries after a %s fault and returns the correct answer', async (fault, errorKind) => {
    server.faults.next(fault, 1);
    const result = await client().structured(verdictRequest());
    expect(result.value).toEqual(expectedVerdicts);
    expect(result.usage.calls).toBe(2);
    expect(server.faults.counts()[fault]).toBe(1);
    expect(events.map((e) => e.outcome)).toEqual(['retry', 'ok']);
    expect(events[0]!.errorKind).toBe(errorKind);
    expect(backoff.delays).toHaveLength(1);
  });

  it('repairs an unusable answer with a message naming the error, keeping the original prefix', async () => {
    server.faults.next('malformed_json', 1);
    await client().structured(verdictRequest());
    const first = (server.requests[0]!.body as { messages: Array<{ role: string; content: string }> }).messages;
    const second = (server.requests[1]!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second).toHaveLength(first.length + 2);
    expect(second[first.length]!.role).toBe('assistant');
    expect(second[first.length + 1]!.content).toContain('invalid_json');
  });

  it('gives a truncated answer more room on the retry', async () => {
    server.faults.next('truncated', 1);
    await client().structured(verdictRequest());
    expect((server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(400);
    expect((server.requests[1]!.body as { max_tokens: number }).max_tokens).toBe(800);
  });

  it('times out a hung request at the deadline and retries', async () => {
    server.faults.next('hang', 1);
    const result = await client({ timeoutMs: 150 }).structured(verdictRequest());
    expect(result.value).toEqual(expectedVerdicts);
    expect(events.map((e) => e.errorKind ?? e.outcome)).toEqual(['timeout', 'ok']);
  });

  it('times out a request slowed past the deadline by added latency', async () => {
    server.faults.next('latency', 1, { ms: 2000 });
    const result = await client({ timeoutMs: 150 }).structured(verdictRequest());
    expect(result.value).toEqual(expectedVerdicts);
    expect(events[0]!.errorKind).toBe('timeout');
  });

  it('survives fenced JSON and <think> blocks in the content on the first attempt', async () => {
    server.faults.next('fenced_json', 1).next('think_in_content', 1);
    const c = client();
    expect((await c.structured(verdictRequest())).usage.calls).toBe(1);
    expect((await c.structured(verdictRequest())).value).toEqual(expectedVerdicts);
    expect(server.requests).toHaveLength(2);
  });

  it.each(['http_500', 'malformed_json', 'truncated', 'hang'] as FaultKind[])(
    'ends a persistent %s fault in JudgeCallError after maxAttempts',
    async (fault) => {
      server.faults.always(fault);
      const error = await client({ timeoutMs: 100 })
        .structured(verdictRequest())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JudgeCallError);
      const e = error as JudgeCallError;
      expect(e.attempts).toBe(3);
      expect(e.retryable).toBe(true);
      expect(server.requests).toHaveLength(3);
      expect(backoff.delays).toHaveLength(2);
      expect(events.map((x) => x.outcome)).toEqual(['retry', 'retry', 'error']);
    },
  );

  it('does not retry a request the server rejects (4xx)', async () => {
    await server.close();
    server = await startJudgeServer({ strictModel: true });
    const error = await client({ model: 'another-model' })
      .structured(verdictRequest())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'JudgeCallError', kind: 'http_404', retryable: false, attempts: 1 });
  });

  it('waits at least the Retry-After of a 429 before retrying', async () => {
    let answered429 = false;
    const fetchWith429: typeof fetch = async (input, init) => {
      if (!answered429) {
        answered429 = true;
        return new Response(JSON.stringify({ error: { message: 'slow down', type: 'RateLimitError', code: 429 } }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '7' },
        });
      }
      return fetch(input, init);
    };
    const result = await client({ fetch: fetchWith429, backoffBaseMs: 100 }).structured(verdictRequest());
    expect(result.value).toEqual(expectedVerdicts);
    expect(backoff.delays).toEqual([7000]);
    expect(events[0]!.errorKind).toBe('http_429');
  });

  it('backs off exponentially with full jitter', async () => {
    server.faults.always('http_503');
    const draws = [1, 0.5, 0.25];
    await client({ maxAttempts: 4, backoffBaseMs: 100, random: () => draws.shift() ?? 0 })
      .structured(verdictRequest())
      .catch(() => undefined);
    expect(backoff.delays).toEqual([100, 100, 100]);
  });

  it('never has more requests at the server than its concurrency', async () => {
    server.pause();
    const c = client({ concurrency: 3 });
    const calls = Array.from({ length: 8 }, () => c.structured(verdictRequest()));
    await until(() => server.stats().open === 3, 'three requests at the server');
    await new Promise((r) => setTimeout(r, 30));
    expect(server.stats().open).toBe(3);
    server.resume();
    const results = await Promise.all(calls);
    expect(results.every((r) => r.value.verdicts.length === 2)).toBe(true);
    expect(server.stats().maxOpen).toBe(3);
    expect(server.requests).toHaveLength(8);
  });

  describe('which waiting call gets the next slot', () => {
    // One slot, held by a first call while three more queue: a short, a long and a medium prompt, in that order.
    const queued = async (extra: Partial<JudgeClientOptions>) => {
      server.pause();
      const c = client({ concurrency: 1, ...extra });
      const request = (label: string, padding: number) => {
        const r = verdictRequest();
        r.messages = [...r.messages, { role: 'user', content: `${label} ${'x'.repeat(padding)}` }];
        return c.structured(r);
      };
      const calls = [request('first', 0)];
      await until(() => server.stats().open === 1, 'the first call at the server');
      calls.push(request('short', 10), request('long', 3000), request('medium', 600));
      await new Promise((r) => setTimeout(r, 20));
      server.resume();
      await Promise.all(calls);
      return server.requests.map((q) => {
        const messages = (q.body as { messages: Array<{ content: string }> }).messages;
        return messages[messages.length - 1]!.content.split(' ')[0];
      });
    };

    it('is the longest prompt by default, so a backlog ends on short calls', async () => {
      expect(await queued({})).toEqual(['first', 'long', 'medium', 'short']);
    });

    it('is the earliest with queueOrder arrival', async () => {
      expect(await queued({ queueOrder: 'arrival' })).toEqual(['first', 'short', 'long', 'medium']);
    });
  });

  it('stops when the caller aborts', async () => {
    server.faults.always('hang');
    const controller = new AbortController();
    const pending = client()
      .structured(verdictRequest(controller.signal))
      .catch((e: unknown) => e);
    await until(() => server.stats().open === 1, 'the hung request');
    controller.abort();
    expect(await pending).toMatchObject({ name: 'JudgeCallError', kind: 'aborted' });
  });
});

describe('judge client with a reasoning model', () => {
  it.each(['field', 'inline'] as const)('ignores thinking sent %s', async (reasoning) => {
    const server = await startJudgeServer({ reasoning });
    try {
      const c = createJudgeClient({
        baseUrl: server.url,
        model: server.model,
        disableThinking: false,
        sleep: async () => undefined,
      });
      const result = await c.structured(verdictRequest());
      expect(result.value).toEqual(expectedVerdicts);
      expect(result.usage.calls).toBe(1);
    } finally {
      await server.close();
    }
  });
});
