import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRoute } from '../../../src/experiment/report-route.js';
import { directoryReports } from '../../../src/experiment/report-sources.js';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-reports-'));
  await mkdir(join(dir, 'weekly-2026-W48'));
  await writeFile(join(dir, 'weekly-2026-W48', 'report.json'), '{"runName":"weekly-2026-W48"}\n');
  await writeFile(join(dir, 'weekly-2026-W48', 'report.md'), '# report\n');
  await writeFile(join(dir, 'weekly-2026-W48', 'secret.txt'), 'nope');
  await writeFile(join(dir, 'outside.json'), 'nope');
  const route = reportRoute(directoryReports(dir), { public: true });
  server = createServer(async (req, res) => {
    if (!(await route(req, res))) {
      res.writeHead(418);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('report route', () => {
  it('serves the three report files with their content types and lists the runs', async () => {
    const json = await fetch(`${base}/reports/weekly-2026-W48/report.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.text()).toContain('weekly-2026-W48');
    expect((await fetch(`${base}/reports/weekly-2026-W48/report.md`)).headers.get('content-type')).toContain(
      'text/markdown',
    );
    expect((await fetch(`${base}/reports/weekly-2026-W48/report.html`)).status).toBe(404);
    expect(await (await fetch(`${base}/reports/`)).text()).toContain('href="/reports/weekly-2026-W48/report.html"');
  });

  it('never reaches other files', async () => {
    for (const path of [
      '/reports/weekly-2026-W48/secret.txt',
      '/reports/..%2Foutside.json/report.json',
      '/reports/%2e%2e/report.json',
      '/reports/..',
    ]) {
      expect([404, 418], path).toContain((await fetch(`${base}${path}`)).status);
    }
    expect((await fetch(`${base}/other`)).status).toBe(418);
    expect((await fetch(`${base}/reports/weekly-2026-W48/report.json`, { method: 'POST' })).status).toBe(405);
  });
});
