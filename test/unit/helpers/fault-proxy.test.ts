import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';

/** The fault proxy the outage tests rely on does what each rule says, and nothing when no rule matches. */

let upstream: Server | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
  upstream = proxy = undefined;
});

async function start(): Promise<FaultProxy> {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body }));
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  proxy = await startFaultProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { random: () => 0.5 });
  return proxy;
}

describe('startFaultProxy', () => {
  it('forwards method, path, query, headers and body unchanged when no rule matches', async () => {
    const p = await start();
    const res = await fetch(`${p.url}/api/x?a=1&a=2`, {
      method: 'POST',
      headers: { authorization: 'Basic abc' },
      body: '{"k":1}',
    });
    expect(await res.json()).toEqual({ method: 'POST', url: '/api/x?a=1&a=2', auth: 'Basic abc', body: '{"k":1}' });
    expect(p.log).toEqual([{ method: 'POST', path: '/api/x', query: '?a=1&a=2', status: 200, fault: null }]);
  });

  it("answers in the upstream's place, rewrites its JSON, and counts `times`", async () => {
    const p = await start();
    p.add({ match: 'GET /a', times: 1, action: { kind: 'respond', status: 503, body: { message: 'down' } } });
    p.add({
      match: 'GET /b*',
      when: (r) => r.query.get('x') === '1',
      action: { kind: 'rewrite', transform: (body) => ({ ...(body as object), extra: true }) },
    });
    p.add({ match: '/c', action: { kind: 'html' } });
    expect((await fetch(`${p.url}/a`)).status).toBe(503);
    expect((await fetch(`${p.url}/a`)).status).toBe(200);
    expect(await (await fetch(`${p.url}/bee?x=1`)).json()).toMatchObject({ url: '/bee?x=1', extra: true });
    expect(await (await fetch(`${p.url}/bee?x=2`)).json()).not.toHaveProperty('extra');
    const html = await fetch(`${p.url}/c`);
    expect([html.status, html.headers.get('content-type'), (await html.text()).startsWith('<!DOCTYPE html>')]).toEqual([
      200,
      'text/html',
      true,
    ]);
    expect(p.log.map((e) => e.fault)).toEqual(['respond', null, 'rewrite', null, 'html']);
  });

  it('resets, cuts bodies short and honours rates', async () => {
    const p = await start();
    p.add({ match: '/reset', action: { kind: 'reset' } });
    p.add({ match: '/cut', action: { kind: 'truncate', bytes: 5 } });
    p.add({ match: '/never', rate: 0.4, action: { kind: 'reset' } });
    await expect(fetch(`${p.url}/reset`)).rejects.toThrow();
    await expect(fetch(`${p.url}/cut`).then((r) => r.text())).rejects.toThrow();
    expect((await fetch(`${p.url}/never`)).status).toBe(200);
    const remove = p.add({ match: '/never', action: { kind: 'respond', status: 418 } });
    expect((await fetch(`${p.url}/never`)).status).toBe(418);
    remove();
    expect((await fetch(`${p.url}/never`)).status).toBe(200);
  });
});
