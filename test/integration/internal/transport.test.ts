import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeepAliveFetch } from '../../../src/internal/index.js';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: Handler): Promise<string> {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('keep-alive fetch', () => {
  it('sends method, headers and body, returns a real Response, and reuses one connection', async () => {
    const seen: { method?: string; auth?: string; type?: string; body: string; port?: number }[] = [];
    const url = await serve((req, body, res) => {
      seen.push({
        method: req.method!,
        auth: req.headers.authorization!,
        type: req.headers['content-type']!,
        body,
        port: req.socket.remotePort!,
      });
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end(JSON.stringify({ echo: JSON.parse(body) as unknown }));
    });
    const fetchImpl = createKeepAliveFetch();
    for (let i = 0; i < 3; i++) {
      const res = await fetchImpl(`${url}/v1/things?x=${i}`, {
        method: 'POST',
        headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }),
        body: JSON.stringify({ i, text: 'ñandú' }),
      });
      expect(res).toBeInstanceOf(Response);
      expect(res.status).toBe(201);
      expect(res.ok).toBe(true);
      expect(res.headers.get('x-request-id')).toBe('r1');
      expect(await res.json()).toEqual({ echo: { i, text: 'ñandú' } });
    }
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
    expect(seen[0]).toMatchObject({ auth: 'Bearer k', type: 'application/json' });
    expect(new Set(seen.map((s) => s.port)).size).toBe(1);
  });

  it("sends Host and the byte length of a non-ASCII body, keeps a caller's Accept-Encoding, and refuses a header that would split the request", async () => {
    const seen: { host?: string; length?: string; encoding?: string; body: string }[] = [];
    const url = await serve((req, body, res) => {
      seen.push({
        host: req.headers.host!,
        length: req.headers['content-length']!,
        encoding: req.headers['accept-encoding']!,
        body,
      });
      res.writeHead(204);
      res.end();
    });
    const fetchImpl = createKeepAliveFetch();
    const res = await fetchImpl(url, { method: 'POST', headers: { 'Accept-Encoding': 'identity' }, body: 'ñandú 🦤' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(seen[0]).toEqual({
      host: new URL(url).host,
      length: String(Buffer.byteLength('ñandú 🦤')),
      encoding: 'identity',
      body: 'ñandú 🦤',
    });
    await expect(fetchImpl(url, { headers: { 'x-evil': 'a\r\nx-injected: 1' } })).rejects.toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(1);
  });

  it('decodes a gzip body and passes error statuses through as responses', async () => {
    const url = await serve((req, _body, res) => {
      if (req.url === '/gz') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify({ ok: true })));
      } else {
        res.writeHead(429, { 'retry-after': '2' });
        res.end('slow down');
      }
    });
    const fetchImpl = createKeepAliveFetch();
    expect(await (await fetchImpl(`${url}/gz`)).json()).toEqual({ ok: true });
    const limited = await fetchImpl(`${url}/limited`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.text()).toBe('slow down');
  });

  it('rejects with the signal reason on abort, and like fetch (TypeError with the socket error as cause) when the connection fails', async () => {
    const url = await serve(() => {
      // never answers
    });
    const fetchImpl = createKeepAliveFetch();
    const controller = new AbortController();
    const pending = fetchImpl(`${url}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('deadline')), 5);
    await expect(pending).rejects.toThrow('deadline');
    const plain = new AbortController();
    plain.abort();
    await expect(fetchImpl(`${url}/hang`, { signal: plain.signal })).rejects.toMatchObject({ name: 'AbortError' });

    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const failed = await fetchImpl(`${url}/gone`).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as TypeError).message).toBe('fetch failed');
    expect(((failed as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('follows a redirect through the fallback fetch', async () => {
    const url = await serve((req, _body, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`at ${req.url}`);
      }
    });
    const res = await createKeepAliveFetch()(`${url}/old`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('at /new');
  });

  it('is a transport the openai SDK accepts', async () => {
    const url = await serve((req, body, res) => {
      const request = JSON.parse(body) as { model: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `{"path":"${req.url}"}` } },
          ],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
    });
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0, fetch: createKeepAliveFetch() });
    const completion = await openai.chat.completions.create({
      model: 'judge',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.model).toBe('judge');
    expect(completion.choices[0]!.message.content).toBe('{"path":"/v1/chat/completions"}');
    expect(completion.usage?.total_tokens).toBe(5);
  });
});
