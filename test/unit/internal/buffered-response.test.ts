import { describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../../src/internal/index.js';

function make(body: string | null, headers: string[] = ['Content-Type', 'application/json'], status = 200) {
  return new BufferedResponse(body === null ? null : Buffer.from(body), {
    status,
    statusText: 'OK',
    headers,
    url: 'http://127.0.0.1/x',
  }) as unknown as Response;
}

describe('BufferedResponse', () => {
  it('is a Response whose every member works without a brand-check error', async () => {
    const res = make('{"a":1}');
    expect(res).toBeInstanceOf(Response);
    for (const name of Object.getOwnPropertyNames(Response.prototype)) {
      if (name === 'constructor') continue;
      const value = (res as unknown as Record<string, unknown>)[name];
      if (typeof value === 'function') {
        const fresh = make('{"a":1}') as unknown as Record<string, () => unknown>;
        const out = fresh[name]!();
        if (out instanceof Promise)
          await out.catch((err: unknown) => expect(String(err)).not.toMatch(/Illegal invocation|brand/i));
      } else expect(() => value).not.toThrow();
    }
  });

  it('reads like fetch: status, ok, headers, json/text/arrayBuffer/bytes/blob, one read only', async () => {
    const res = make(
      '{"ñ":"ü"}',
      [
        'content-type',
        'application/json',
        'Set-Cookie',
        'a=1',
        'set-cookie',
        'b=2',
        'X-Request-Id',
        'r1',
        'x-multi',
        'a',
        'X-Multi',
        'b',
      ],
      201,
    );
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('r1');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ ñ: 'ü' });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toBeInstanceOf(TypeError);
    expect(await make('hi').text()).toBe('hi');
    expect(new TextDecoder().decode(await make('hi').arrayBuffer())).toBe('hi');
    expect([...(await (make('hi') as unknown as { bytes(): Promise<Uint8Array> }).bytes())]).toEqual([104, 105]);
    const blob = await make('hi').blob();
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe('hi');
    expect(make('', [], 404).ok).toBe(false);
  });

  it('drops a leading byte order mark and rejects invalid JSON with a SyntaxError', async () => {
    expect(await make('\uFEFF{"a":1}').json()).toEqual({ a: 1 });
    await expect(make('<html>').json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('streams the body when asked, and reads a null body as empty any number of times', async () => {
    const res = make('streamed');
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(Buffer.concat(chunks).toString()).toBe('streamed');
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toBeInstanceOf(TypeError);

    const empty = make(null, [], 204);
    expect(empty.body).toBeNull();
    expect(await empty.text()).toBe('');
    expect(await empty.text()).toBe('');
  });

  it('clones before a read, not after; leaves out the headers it is told to', async () => {
    const res = new BufferedResponse(Buffer.from('x'), {
      status: 200,
      statusText: 'OK',
      headers: ['Content-Encoding', 'gzip', 'Content-Length', '20', 'Content-Type', 'text/plain'],
      omitHeaders: new Set(['content-encoding', 'content-length']),
      url: 'http://h/',
    }) as unknown as Response;
    expect(res.headers.has('content-encoding')).toBe(false);
    expect(res.headers.has('content-length')).toBe(false);
    const copy = res.clone();
    expect(await copy.text()).toBe('x');
    expect(await res.text()).toBe('x');
    expect(() => res.clone()).toThrow(TypeError);
  });
});
