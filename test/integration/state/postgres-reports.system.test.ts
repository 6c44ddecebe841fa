import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { runJudgeStage } from '../../../src/calibrate/index.js';
import { createExperimentJob } from '../../../src/experiment/job.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';
import { startDaemon, type Daemon } from '../../../src/service/daemon.js';
import { openPostgresState, type PostgresState } from '../../../src/state/postgres/open.js';
import { dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { runCli } from '../../helpers/run-cli.js';
import { postgresUrl } from '../../tiers.js';
import { startHarness, type Harness } from '../experiment/harness.js';

/**
 * With PostgreSQL state the weekly reports live in the state: a report written by `experiment run` or by one
 * replica's weekly job opens from every replica, and after every replica restarted, through the signed link
 * recorded in Langfuse; without the link's signature or the token it is 401.
 */

const URL_ = postgresUrl();
const schema = testSchema('rw_reports');
const TOKEN = 'reports-token-0123456789';
const SECRET = 'reports-secret-0123456789abcdef0123456789';
const ITEMS = [
  ...GOLDEN_ITEMS.filter((i) => i.type === 'single-hop').slice(0, 3),
  ...GOLDEN_ITEMS.filter((i) => i.type === 'adversarial').slice(0, 1),
];
let h: Harness;
const daemons: Daemon[] = [];
const states: PostgresState[] = [];

beforeAll(async () => {
  await requirePostgres();
  h = await startHarness('v3', { items: ITEMS });
}, 60_000);
afterAll(async () => {
  for (const d of daemons.splice(0)) await d.shutdown('test');
  for (const s of states.splice(0)) await s.close().catch(() => {});
  await h?.close();
  await dropSchema(schema);
});

function settings(extra: Record<string, unknown> = {}) {
  return h.config({
    online: { enabled: false },
    experiment: { enabled: true, reportsDir: join(h.dir, 'reports'), publicUrl: 'https://ragwatch.example', ...extra },
    http: { host: '127.0.0.1', port: 0, reportsToken: TOKEN, reportsSigningSecret: SECRET },
  });
}

async function replica(): Promise<string> {
  const state = await openPostgresState({ url: URL_, schema });
  const daemon = await startDaemon({
    config: settings(),
    runtime: testRuntime({ now: systemClock, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 50))) }),
    state,
    connectBackoffMs: 60_000,
  });
  daemons.push(daemon);
  return `http://127.0.0.1:${daemon.http.port}`;
}

/** The report link a run recorded in Langfuse, as path and query (the base is the public URL). */
function recordedLink(runName: string): string {
  const run = h.langfuse.store.datasetRuns('rag-golden').find((r) => r.name === runName);
  const link = new URL((run?.metadata as { reportUrl: string }).reportUrl);
  expect(link.origin).toBe('https://ragwatch.example');
  expect(link.searchParams.get('sig')).toBeTruthy();
  return `${link.pathname}${link.search}`;
}

describe('reports every replica serves (PostgreSQL state)', () => {
  it('a report experiment run wrote opens from every replica, and after all of them restarted', async () => {
    const file = join(h.dir, 'ragwatch-pg.yaml');
    await writeFile(
      file,
      `${h.yaml(`state: {url: "${URL_}", schema: ${schema}}`)}\nexperiment:\n  reportsDir: ${join(h.dir, 'cli-reports')}\n  publicUrl: https://ragwatch.example\n  bootstrapSamples: 200\n  target: {url: "${h.rag.askUrl}", response: {answer: answer, contexts: contexts}}\n`,
    );
    const cli = await runCli(['--config', file, 'experiment', 'run', '--run-name', 'pg-cli'], {
      env: { RAGWATCH_REPORTS_TOKEN: TOKEN, RAGWATCH_REPORTS_SIGNING_SECRET: SECRET },
      timeoutMs: 120_000,
    });
    expect([0, 1, 4], cli.stderr).toContain(cli.code);
    const html = readFileSync(join(h.dir, 'cli-reports', 'pg-cli', 'report.html'), 'utf8');
    const link = recordedLink('pg-cli');

    const [a, b] = [await replica(), await replica()];
    for (const base of [a, b]) {
      const res = await fetch(`${base}${link}`);
      expect(res.status, base).toBe(200);
      expect(await res.text()).toBe(html);
      expect((await fetch(`${base}${link.split('?')[0]}`)).status).toBe(401);
      const json = await fetch(`${base}/reports/pg-cli/report.json`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect((await json.json()) as { runName: string }).toMatchObject({ runName: 'pg-cli' });
    }
    // A rollout: every replica goes, new ones come.
    for (const d of daemons.splice(0)) await d.shutdown('rollout');
    const c = await replica();
    expect(await (await fetch(`${c}${link}`)).text()).toBe(html);
  }, 240_000);

  it('the weekly job on one replica keeps its report in the state only, and every replica serves it', async () => {
    const state = await openPostgresState({ url: URL_, schema });
    states.push(state);
    const config = settings({ runNamePrefix: 'pg-weekly' });
    const results: string[] = [];
    const job = createExperimentJob({
      config,
      runtime: testRuntime({ now: systemClock }),
      state,
      reports: state,
      metrics: { goldenResults: () => {} },
      judgeStage: runJudgeStage,
      onResult: (r) => results.push(r.runName),
    });
    await job({ reason: 'scheduled', stop: new AbortController().signal, signal: new AbortController().signal });
    expect(results).toHaveLength(1);
    const runName = results[0]!;
    // No file: the replica's disk is no place for it.
    expect(existsSync(join(h.dir, 'reports', runName))).toBe(false);
    expect(await state.getReportFile(runName, 'report.html')).toContain('<!doctype html>');
    const link = recordedLink(runName);
    for (const base of [await replica(), await replica()]) expect((await fetch(`${base}${link}`)).status).toBe(200);
  }, 240_000);
});
