import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeepAliveFetch } from '../../../src/internal/index.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
  server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const MB = 1024 * 1024;

/** Writes `total` bytes in 64 KiB pieces, honouring backpressure; counts what the socket took. */
function writeLarge(res: http.ServerResponse, total: number, sent: { bytes: number }, then?: () => void): void {
  const piece = Buffer.alloc(64 * 1024, 'a');
  const next = () => {
    while (sent.bytes < total) {
      sent.bytes += piece.length;
      if (!res.write(piece)) return void res.once('drain', next);
    }
    if (then) then();
    else res.end();
  };
  next();
}

describe('keep-alive fetch: bodies larger than its buffer stream', () => {
  it('hands back a large body as a stream, before it has all arrived, and reads it whole', async () => {
    const sent = { bytes: 0 };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // 2 MiB now, the last 2 MiB only once the client has its response
      writeLarge(res, 2 * MB, sent, () => void gate.then(() => writeLarge(res, 4 * MB, sent)));
    });
    const fetchImpl = createKeepAliveFetch({ bufferLimit: MB });
    const response = await fetchImpl(`${url}/big`);
    expect(sent.bytes).toBeLessThan(4 * MB);
    release();
    let read = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) read += chunk.byteLength;
    expect(read).toBe(4 * MB);
  });

  it('does not read ahead of the consumer: backpressure reaches the server', async () => {
    const sent = { bytes: 0 };
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeLarge(res, 64 * MB, sent);
    });
    const fetchImpl = createKeepAliveFetch({ bufferLimit: MB });
    const response = await fetchImpl(`${url}/huge`);
    const reader = response.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 100));
    // socket buffers and the stream's queue hold a few MiB at most, never the 64 MiB
    expect(sent.bytes).toBeLessThan(16 * MB);
    await reader.cancel();
  });

  it('streams a gzip body whose decoded size is over the buffer, though small on the wire', async () => {
    const text = JSON.stringify({ output: 'palabra '.repeat(500_000) });
    const gz = zlib.gzipSync(text);
    expect(gz.length).toBeLessThan(MB);
    const url = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': gz.length,
      });
      res.end(gz);
    });
    const fetchImpl = createKeepAliveFetch({ bufferLimit: MB });
    const response = await fetchImpl(`${url}/gz`);
    expect(response.headers.get('content-encoding')).toBeNull();
    let decoded = '';
    const decoder = new TextDecoder();
    let chunks = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      decoded += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);
    expect(decoded).toBe(text);
  });

  it('errors the stream when the connection breaks mid-body, and when the signal aborts', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeLarge(res, 2 * MB, { bytes: 0 }, () => (req.url === '/reset' ? res.socket?.destroy() : undefined));
    });
    const fetchImpl = createKeepAliveFetch({ bufferLimit: MB });
    const broken = await fetchImpl(`${url}/reset`);
    await expect(broken.text()).rejects.toThrow();

    const controller = new AbortController();
    const hanging = await fetchImpl(`${url}/stall`, { signal: controller.signal });
    const reading = hanging.arrayBuffer();
    controller.abort(new Error('deadline'));
    await expect(reading).rejects.toThrow('deadline');
  });

  it('keeps small bodies on the buffered path', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"small":true}');
    });
    const response = await createKeepAliveFetch({ bufferLimit: MB })(`${url}/s`);
    expect(response.constructor.name).toBe('BufferedResponse');
    expect(await response.json()).toEqual({ small: true });
  });
});
