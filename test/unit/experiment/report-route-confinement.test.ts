import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRoute } from '../../../src/experiment/report-route.js';
import { directoryReports } from '../../../src/experiment/report-sources.js';
import { startDaemon } from '../../../src/service/daemon.js';
import { startHttpService, type HttpService } from '../../../src/service/http.js';
import { openSqliteState } from '../../../src/state/index.js';
import { configSchema } from '../../helpers/config.js';
import { sleep } from '../../../src/internal/index.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';

let dir: string;
let reports: string;
let stateFile: string;
let service: HttpService;
let base: string;

const metrics = { render: async () => '', contentType: 'text/plain' };
const readiness = async () => ({ ready: true, checks: {} });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ragwatch-reports-confined-'));
  // The reports directory is itself reached through a symlink, as with a mounted volume: that is fine.
  const realReports = join(dir, 'volume', 'reports');
  reports = join(dir, 'reports');
  await mkdir(join(realReports, 'weekly-2026-W48'), { recursive: true });
  await symlink(realReports, reports);
  await writeFile(join(realReports, 'weekly-2026-W48', 'report.json'), '{"runName":"weekly-2026-W48"}\n');
  await writeFile(join(realReports, 'weekly-2026-W48', 'report.md'), '# report\n');
  // a run name that points at another run inside the directory is served
  await symlink('weekly-2026-W48', join(realReports, 'latest'));

  stateFile = join(dir, 'state.db');
  await writeFile(stateFile, 'SQLite format 3\u0000 ledger of trace ids');
  await mkdir(join(dir, 'outside'));
  await writeFile(join(dir, 'outside', 'report.json'), '{"outside":true}\n');

  // links that lead out of the reports directory
  await mkdir(join(realReports, 'passwd'));
  await symlink('/etc/passwd', join(realReports, 'passwd', 'report.md'));
  await mkdir(join(realReports, 'state'));
  await symlink(stateFile, join(realReports, 'state', 'report.json'));
  await symlink(join(dir, 'outside'), join(realReports, 'escape'));
  // not a regular file
  await mkdir(join(realReports, 'dir-run', 'report.html'), { recursive: true });

  service = await startHttpService({
    host: '127.0.0.1',
    port: 0,
    metrics,
    readiness,
    routes: [reportRoute(directoryReports(reports), { public: true })],
  });
  base = `http://127.0.0.1:${service.port}`;
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('/reports serves only regular files inside the real reports directory', () => {
  it('serves reports, also through a run-name link that stays inside', async () => {
    expect((await fetch(`${base}/reports/weekly-2026-W48/report.json`)).status).toBe(200);
    const latest = await fetch(`${base}/reports/latest/report.json`);
    expect(latest.status).toBe(200);
    expect(await latest.text()).toContain('weekly-2026-W48');
  });

  it('does not follow a link to /etc/passwd', async () => {
    const res = await fetch(`${base}/reports/passwd/report.md`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/root:/);
  });

  it('does not follow a link to the state file, nor a run directory linked outside', async () => {
    const state = await fetch(`${base}/reports/state/report.json`);
    expect(state.status).toBe(404);
    expect(await state.text()).not.toMatch(/SQLite|ledger/);
    const escape = await fetch(`${base}/reports/escape/report.json`);
    expect(escape.status).toBe(404);
    expect(await escape.text()).not.toMatch(/outside/);
  });

  it('answers 404 for a report name that is a directory', async () => {
    expect((await fetch(`${base}/reports/dir-run/report.html`)).status).toBe(404);
  });

  it('lists only runs whose report is inside', async () => {
    const list = await (await fetch(`${base}/reports/`)).text();
    expect(list).toContain('weekly-2026-W48');
    expect(list).not.toMatch(/state|escape|passwd/);
  });
});

describe('/reports methods', () => {
  it('answers 405 with Allow for anything but GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const path of ['/reports/', '/reports/weekly-2026-W48/report.json', '/reports/nope/report.json']) {
        const res = await fetch(`${base}${path}`, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
      }
    }
    const head = await fetch(`${base}/reports/weekly-2026-W48/report.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it("answers 405 with Allow on the service's own routes too", async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const res = await fetch(`${base}${path}`, { method: 'POST' });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await fetch(`${base}/nothing-here`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the daemon serves /reports only while the experiment is enabled, behind its token', () => {
  const TOKEN = 'daemon-token-0123456789';
  it.each([false, true])('experiment.enabled: %s', async (enabled) => {
    const config = configSchema.parse({
      // nothing answers here: the daemon keeps retrying Langfuse in the background while HTTP is up
      langfuse: { baseUrl: 'http://127.0.0.1:9', maxAttempts: 1 },
      online: { enabled: false },
      experiment: { enabled, reportsDir: reports, target: { url: 'http://127.0.0.1:9/ask' } },
      http: {
        host: '127.0.0.1',
        port: 0,
        reportsToken: TOKEN,
        reportsSigningSecret: 'daemon-secret-0123456789abcdef0123456789',
      },
    });
    const state = openSqliteState({ path: ':memory:' });
    const daemon = await startDaemon({
      config,
      runtime: testRuntime({ now: systemClock, sleep }),
      state,
      connectBackoffMs: 60_000,
    });
    try {
      const url = `http://127.0.0.1:${daemon.http.port satisfies number}`;
      const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
      const list = await fetch(`${url}/reports/`, auth);
      const report = await fetch(`${url}/reports/weekly-2026-W48/report.json`, auth);
      expect([list.status, report.status]).toEqual(enabled ? [200, 200] : [404, 404]);
      if (!enabled) expect(await report.text()).not.toContain('weekly-2026-W48');
      const anonymous = await fetch(`${url}/reports/weekly-2026-W48/report.json`);
      expect(anonymous.status).toBe(enabled ? 401 : 404);
      expect(await anonymous.text()).not.toContain('weekly-2026-W48');
      // The service's own routes need no token.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(503);
    } finally {
      await daemon.shutdown('test');
    }
  });
});
