import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { openSqliteGoldenStore, openSqliteState } from '../../../src/state/index.js';
import { openPostgresState } from '../../../src/state/postgres/open.js';
import { seed, startStack, type Stack } from '../online/harness.js';
import { dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { postgresUrl } from '../../tiers.js';
import { runCli } from '../../helpers/run-cli.js';

/** The test server (RAGWATCH_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test). */
const TEST_PG_URL = postgresUrl();

const MIN = 60_000;
/** Trust auth ignores the password: it is there to show it never reaches the output. */
const url = TEST_PG_URL.replace('postgres@', 'postgres:hunter2-Secret@');
const schema = testSchema('rw_migrate');
let stack: Stack;
let dir: string;
let statePath: string;

beforeAll(async () => {
  await requirePostgres();
  stack = await startStack('v4');
  await seed(stack, 'v4', 80, new Date(Date.now() - 11 * MIN), 3);
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-migrate-'));
  statePath = join(dir, 'state.db');
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(
    file,
    stringify({
      langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
      judge: { baseUrl: stack.judge.url, model: stack.judge.model },
      embeddings: { model: stack.judge.embeddingModel },
      sampling: { rate: 0.5 },
      state: { path: statePath },
      log: { level: 'warn' },
    }),
  );
  // Today's schema, written by today's code path: an online run through the CLI ...
  const run = await runCli(['sample', '--once', '--config', file], { timeoutMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);
  // ... and the experiment's and the golden builder's records through the store.
  const state = openSqliteState({ path: statePath });
  await state.recordExperimentRun({
    dataset: 'rag-golden-v1',
    runName: 'weekly-1',
    datasetRunId: 'dr1',
    startedAt: 1,
    finishedAt: 2,
    split: 'all',
    gatePassed: true,
    means: { faithfulness: 0.9 },
    perItem: { faithfulness: { i1: 0.9, i2: 0.8 } },
  });
  await state.close();
  const golden = openSqliteGoldenStore({ path: statePath });
  await golden.startBuild({ buildId: 'b1', candidatesDataset: 'cands', planHash: 'h', startedAt: 1 });
  await golden.putSeed({
    candidatesDataset: 'cands',
    seedKey: 'k1',
    stratum: 'single-hop',
    chunkIds: ['c'],
    stage: 'done',
    candidateIds: [],
    lastError: null,
    attempts: 1,
    updatedAt: 2,
  });
  golden.close();
}, 300_000);

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await dropSchema(schema);
});

describe('ragwatch state migrate', () => {
  it('copies the ledger, cursor, job runs and history, and a second run copies nothing', async () => {
    const source = openSqliteState({ path: statePath });
    const entries = [
      ...(await source.listByStatus('done', 1000)),
      ...(await source.listByStatus('skipped', 1000)),
      ...(await source.listByStatus('pending', 1000)),
    ];
    expect(entries.length).toBeGreaterThan(10);
    const cursor = await source.getCursor('online');
    const job = await source.getJobRun('online');
    const meta = await source.getMeta('langfuse.api');
    const gauges = await source.getGauges();
    await source.close();

    const first = await runCli(['state', 'migrate', '--from', statePath, '--to', url, '--schema', schema]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(`ledger\\s+${entries.length}\\s+${entries.length}\\s+0\\s+${entries.length}`),
    );
    expect(first.stdout).toContain('counts match: every row of the file is in PostgreSQL');
    expect(first.stdout).toContain('postgres:***@');
    expect(first.stdout + first.stderr).not.toContain('hunter2-Secret');

    const target = await openPostgresState({ url: TEST_PG_URL, schema });
    try {
      for (const e of entries) expect(await target.getEntry(e.traceId)).toEqual(e);
      expect(await target.countByStatus()).toMatchObject({ done: expect.any(Number) });
      expect(await target.getCursor('online')).toBe(cursor);
      expect(await target.getJobRun('online')).toEqual(job);
      expect(await target.getMeta('langfuse.api')).toEqual(meta);
      expect(await target.getGauges()).toEqual(gauges);
      expect((await target.listExperimentRuns('rag-golden-v1', 5)).map((r) => r.runName)).toEqual(['weekly-1']);
      expect(await target.getExperimentItemValues('rag-golden-v1', 'weekly-1')).toEqual({
        faithfulness: { i1: 0.9, i2: 0.8 },
      });
      expect((await target.golden().seeds('cands')).map((s) => s.seedKey)).toEqual(['k1']);
      expect((await target.golden().lastBuild('cands'))?.buildId).toBe('b1');
    } finally {
      await target.close();
    }

    const second = await runCli(['state', 'migrate', '--from', statePath, '--to', url, '--schema', schema]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('nothing to copy: every row of the file is already in PostgreSQL');
    expect(second.stdout).toMatch(
      new RegExp(`ledger\\s+${entries.length}\\s+0\\s+${entries.length}\\s+${entries.length}`),
    );
  }, 120_000);

  it("refuses while a daemon holds the file's lease, and takes the URL from RAGWATCH_STATE_URL", async () => {
    const state = openSqliteState({ path: statePath });
    const holder = { id: 'elsewhere:7:abc', host: 'another-host', pid: 7 };
    expect(await state.acquireLease('online-tick', holder, 60 * MIN, Date.now())).toBe(true);
    try {
      const refused = await runCli(['state', 'migrate', '--from', statePath, '--schema', schema], {
        env: { RAGWATCH_STATE_URL: url },
      });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('is in use: lease online-tick is held by elsewhere:7:abc');
      expect(refused.stderr).not.toContain('hunter2-Secret');
    } finally {
      await state.releaseLease('online-tick', holder);
      await state.close();
    }
    const bad = await runCli(['state', 'migrate', '--from', join(dir, 'missing.db'), '--to', url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from:');
    const notPg = await runCli(['state', 'migrate', '--from', statePath, '--to', 'mysql://u:p@h/d']);
    expect(notPg.code).toBe(2);
  }, 60_000);
});
