import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportLink } from '../../../src/experiment/metadata.js';
import { reportAccessFrom, reportPathSignature, type ReportAccess } from '../../../src/experiment/report-access.js';
import { reportRoute } from '../../../src/experiment/report-route.js';
import { archivedReports, directoryReports } from '../../../src/experiment/report-sources.js';
import { openSqliteState } from '../../../src/state/index.js';
import { parseConfig } from '../../helpers/config.js';

const TOKEN = 'tok-0123456789abcdef';
const SECRET = 'sec-0123456789abcdef0123456789abcdef';
const RUN = 'weekly-2026-W48';
const HTML = `/reports/${RUN}/report.html`;

let dir: string;
const servers: Server[] = [];

async function serve(route: ReturnType<typeof reportRoute>): Promise<string> {
  const server = createServer(async (req, res) => {
    if (!(await route(req, res))) res.writeHead(418).end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-report-access-'));
  await mkdir(join(dir, RUN));
  for (const [file, body] of [
    ['report.html', '<p>the dev split’s questions</p>'],
    ['report.md', '# report'],
    ['report.json', '{}'],
  ])
    await writeFile(join(dir, RUN, file!), body!);
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await rm(dir, { recursive: true, force: true });
});

const guarded: ReportAccess = { public: false, token: TOKEN, signingSecret: SECRET };
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('who may read /reports/', () => {
  it('asks for the token (401 naming the scheme), or the signature of the very path asked', async () => {
    const base = await serve(reportRoute(directoryReports(dir), guarded));
    const none = await fetch(`${base}${HTML}`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="ragwatch reports"');
    expect(await none.text()).not.toContain('questions');
    expect((await fetch(`${base}${HTML}`, bearer('wrong-token-0123456789'))).status).toBe(401);
    const withToken = await fetch(`${base}${HTML}`, bearer(TOKEN));
    expect([withToken.status, await withToken.text()]).toEqual([200, '<p>the dev split’s questions</p>']);
    expect((await fetch(`${base}/reports/${RUN}/report.json`, bearer(TOKEN))).status).toBe(200);

    const sig = reportPathSignature(SECRET, HTML);
    expect((await fetch(`${base}${HTML}?sig=${sig}`)).status).toBe(200);
    expect((await fetch(`${base}${HTML}?sig=${sig.slice(0, -2)}xx`)).status).toBe(401);
    // A signature opens the path it was made for, nothing else.
    expect((await fetch(`${base}/reports/${RUN}/report.json?sig=${sig}`)).status).toBe(401);
    expect((await fetch(`${base}/reports/?sig=${sig}`)).status).toBe(401);
    // Rotating the secret revokes every link made with the old one.
    const rotated = await serve(reportRoute(directoryReports(dir), { ...guarded, signingSecret: `${SECRET}-next` }));
    expect((await fetch(`${rotated}${HTML}?sig=${sig}`)).status).toBe(401);
    // No secret: only the token opens a report.
    const unsigned = await serve(reportRoute(directoryReports(dir), { ...guarded, signingSecret: null }));
    expect((await fetch(`${unsigned}${HTML}?sig=${sig}`)).status).toBe(401);
  });

  it('lists the runs to the token only, with signed links that open in a browser', async () => {
    const base = await serve(reportRoute(directoryReports(dir), guarded));
    expect((await fetch(`${base}/reports/`)).status).toBe(401);
    const listing = await (await fetch(`${base}/reports/`, bearer(TOKEN))).text();
    const href = /href="([^"]+report\.html[^"]*)"/.exec(listing)?.[1];
    expect(href).toBe(`${HTML}?sig=${reportPathSignature(SECRET, HTML)}`);
    expect((await fetch(`${base}${href}`)).status).toBe(200);
  });

  it('serves everyone when public, and reports kept in the state the same way', async () => {
    const state = openSqliteState({ path: ':memory:' });
    await state.putReport({ runDir: RUN, files: { 'report.html': '<p>kept</p>' }, createdAt: 1 });
    const open = await serve(reportRoute(archivedReports(state), { public: true }));
    expect(await (await fetch(`${open}${HTML}`)).text()).toBe('<p>kept</p>');
    expect(await (await fetch(`${open}/reports/`)).text()).toContain(`href="${HTML}"`);
    const closed = await serve(reportRoute(archivedReports(state), guarded));
    expect((await fetch(`${closed}${HTML}`)).status).toBe(401);
    expect((await fetch(`${closed}${HTML}?sig=${reportPathSignature(SECRET, HTML)}`)).status).toBe(200);
    await state.close();
  });

  it('signs the link recorded in Langfuse with the secret, over the path the daemon sees', () => {
    const config = parseConfig({
      http: { reportsToken: TOKEN, reportsSigningSecret: SECRET },
      experiment: { publicUrl: 'https://ragwatch.internal/team-a/' },
    });
    expect(reportLink(config, RUN)).toBe(
      `https://ragwatch.internal/team-a${HTML}?sig=${reportPathSignature(SECRET, HTML)}`,
    );
    expect(reportLink(parseConfig({ http: { reportsPublic: true } }), RUN)).toBe(`http://localhost:9464${HTML}`);
    expect(reportAccessFrom(config.http)).toEqual(guarded);
    expect(reportAccessFrom(parseConfig({ http: { reportsPublic: true } }).http)).toEqual({ public: true });
  });
});
