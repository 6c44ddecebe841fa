import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/internal/index.js';
import { createLangfuseHttp, LangfuseApiError, type RequestEvent } from '../../../src/langfuse/core/http.js';
import { noSleep, scriptedFetch } from './fake-fetch.js';

const keys = { baseUrl: 'http://127.0.0.1:1/', publicKey: 'pk-lf-test', secretKey: 'sk-lf-super-secret' };

describe('Langfuse HTTP core', () => {
  it('sends basic auth and query parameters, arrays repeated', async () => {
    const { fetch, requests } = scriptedFetch(() => ({ status: 200, body: { ok: true } }));
    const http = createLangfuseHttp({ ...keys, fetch });
    const res = await http.request({
      method: 'GET',
      path: '/api/public/traces',
      query: { limit: 1, tags: ['a', 'b'], name: undefined },
    });
    expect(res).toEqual({ status: 200, data: { ok: true } });
    const req = requests[0]!;
    expect(req.url.pathname).toBe('/api/public/traces');
    expect(req.url.searchParams.getAll('tags')).toEqual(['a', 'b']);
    expect(req.url.searchParams.has('name')).toBe(false);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('pk-lf-test:sk-lf-super-secret').toString('base64')}`);
  });

  it('retries 5xx, 429 and connection errors with growing, jittered backoff, then succeeds', async () => {
    const answers = [{ status: 500 }, new TypeError('fetch failed'), { status: 502 }, { status: 200, body: { n: 1 } }];
    const { fetch } = scriptedFetch((_r, i) => answers[i]!);
    const { sleep, sleeps } = noSleep();
    const events: RequestEvent[] = [];
    const http = createLangfuseHttp({
      ...keys,
      fetch,
      sleep,
      random: () => 1,
      initialBackoffMs: 100,
      onRequest: (e) => events.push(e),
    });
    const res = await http.request({ method: 'GET', path: '/x', route: 'GET /x' });
    expect(res.data).toEqual({ n: 1 });
    expect(sleeps).toEqual([100, 200, 400]);
    expect(events.map((e) => e.outcome)).toEqual(['server_error', 'connection_error', 'server_error', 'ok']);
    expect(events.every((e) => e.route === 'GET /x')).toBe(true);
  });

  it('honours Retry-After on 429', async () => {
    const answers = [
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 200, body: {} },
    ];
    const { fetch } = scriptedFetch((_r, i) => answers[i]!);
    const { sleep, sleeps } = noSleep();
    const http = createLangfuseHttp({ ...keys, fetch, sleep });
    await http.request({ method: 'GET', path: '/x' });
    expect(sleeps).toEqual([7000]);
  });

  it('does not retry 4xx and keeps the secret out of the error', async () => {
    const { fetch, requests } = scriptedFetch(() => ({
      status: 401,
      body: { message: 'Invalid credentials sk-lf-super-secret' },
    }));
    const http = createLangfuseHttp({ ...keys, fetch, sleep: async () => {} });
    const err = await http.request({ method: 'GET', path: '/api/public/traces' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LangfuseApiError);
    const e = err as LangfuseApiError;
    expect(e.status).toBe(401);
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('HTTP 401');
    expect(e.message).not.toContain('sk-lf-super-secret');
    expect(JSON.stringify(e)).not.toContain('sk-lf-super-secret');
    expect(requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with a retryable, unreachable error', async () => {
    const { fetch, requests } = scriptedFetch(() => ({ status: 503 }));
    const http = createLangfuseHttp({ ...keys, fetch, sleep: async () => {}, maxAttempts: 3 });
    const e = (await http.request({ method: 'GET', path: '/x' }).catch((x: unknown) => x)) as LangfuseApiError;
    expect(requests).toHaveLength(3);
    expect(e.status).toBe(503);
    expect(e.retryable).toBe(true);
    expect(e.unreachable).toBe(true);
    expect(e.attempts).toBe(3);
  });

  it('times out a hanging attempt and retries it', async () => {
    let calls = 0;
    const fetch = ((_u: string, init: RequestInit) => {
      calls++;
      if (calls === 1)
        return new Promise((_resolve, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      return Promise.resolve(new Response('{"ok":1}', { status: 200 }));
    }) as unknown as typeof globalThis.fetch;
    const events: RequestEvent[] = [];
    const http = createLangfuseHttp({
      ...keys,
      fetch,
      sleep: async () => {},
      timeoutMs: 20,
      onRequest: (e) => events.push(e),
    });
    const res = await http.request({ method: 'GET', path: '/x' });
    expect(res.data).toEqual({ ok: 1 });
    expect(events[0]!.outcome).toBe('timeout');
  });

  it('returns accepted non-2xx statuses instead of throwing', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 404, body: { message: 'not found' } }));
    const http = createLangfuseHttp({ ...keys, fetch });
    const res = await http.request({ method: 'GET', path: '/x', accept: [404] });
    expect(res.status).toBe(404);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
