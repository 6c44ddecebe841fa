import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiHttp } from '../../../src/judge/openai-http.js';
import { createKeepAliveFetch } from '../../../src/online/keep-alive-fetch.js';

type Reply = { status: number; headers?: Record<string, string>; body: string };

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const seen: { path: string; auth?: string; type?: string; body: unknown }[] = [];

async function serve(reply: (path: string) => Reply | 'hang'): Promise<string> {
  seen.length = 0;
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url!, auth: req.headers.authorization!, type: req.headers['content-type']!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      const r = reply(req.url!);
      if (r === 'hang') return;
      res.writeHead(r.status, r.headers ?? {});
      res.end(r.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const completion = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{}' } }] };
const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hola ñ' }] };

/** What the SDK and this transport each make of the same answer: the value, or the error's class, status, message and headers. */
async function both(baseUrl: string, path: '/chat/completions' | '/embeddings') {
  const fetchImpl = createKeepAliveFetch();
  const sdk = new OpenAI({ baseURL: baseUrl, apiKey: 'k', maxRetries: 0, fetch: fetchImpl });
  const ours = createOpenAiHttp({ baseUrl, apiKey: 'k', fetch: fetchImpl });
  const describeOutcome = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ value: JSON.parse(JSON.stringify(value ?? null)) as unknown }),
      (err: unknown) => ({
        error: (err as Error).constructor.name,
        message: (err as Error).message,
        status: (err as { status?: number }).status,
        retryAfter: (err as { headers?: Headers }).headers?.get?.('retry-after') ?? null,
      }),
    );
  const viaSdk = await describeOutcome(path === '/chat/completions' ? sdk.chat.completions.create(request) : sdk.embeddings.create({ model: 'e', input: ['a'], encoding_format: 'float' }));
  const viaOurs = await describeOutcome(ours.post(path, path === '/chat/completions' ? request : { model: 'e', input: ['a'], encoding_format: 'float' }, new AbortController().signal));
  return { viaSdk, viaOurs };
}

describe('OpenAI-compatible JSON transport', () => {
  it('POSTs the JSON body with a bearer key to base URL + path and returns the parsed answer', async () => {
    const url = await serve(() => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(completion) }));
    const value = await createOpenAiHttp({ baseUrl: `${url}/`, apiKey: 'secret', fetch: createKeepAliveFetch() }).post('/chat/completions', request, new AbortController().signal);
    expect(value).toEqual(completion);
    expect(seen).toEqual([{ path: '/v1/chat/completions', auth: 'Bearer secret', type: 'application/json', body: request }]);
  });

  it.each<[string, Reply]>([
    ['a 400 with an OpenAI error body', { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'bad schema', type: 'invalid_request_error' } }) }],
    ['a 404 with a text body', { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such model' }],
    ['a 429 with Retry-After', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '3' }, body: JSON.stringify({ error: { message: 'slow down' } }) }],
    ['a 500 with an empty body', { status: 500, body: '' }],
    ['a 503 with a vLLM error object', { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'error', message: 'overloaded', code: 503 }) }],
    ['a 200 that is not JSON', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy</html>' }],
    ['a 200 announced as JSON that is not', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"choices": [' }],
  ])('fails or answers exactly as the openai SDK does on %s', async (_label, reply) => {
    const url = await serve(() => reply);
    for (const path of ['/chat/completions', '/embeddings'] as const) {
      const { viaSdk, viaOurs } = await both(url, path);
      expect(viaOurs).toEqual(viaSdk);
    }
  });

  it('raises the SDK connection error when nothing listens, and the SDK abort error when the caller aborts', async () => {
    const url = await serve(() => 'hang');
    const ours = createOpenAiHttp({ baseUrl: url, apiKey: 'k', fetch: createKeepAliveFetch() });
    const controller = new AbortController();
    const pending = ours.post('/chat/completions', request, controller.signal);
    setTimeout(() => controller.abort(new Error('deadline')), 5);
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);

    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const refused = await ours.post('/chat/completions', request, new AbortController().signal).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(((refused as Error).cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });
});
