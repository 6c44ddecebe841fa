import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ONLINE_JOB } from '../../../src/online/job.js';
import { startDaemon, type Daemon } from '../../../src/service/daemon.js';
import { openSqliteState, type StateStore } from '../../../src/state/index.js';
import { PG_SCHEMA_VERSION } from '../../../src/state/postgres/migrations.js';
import { openPostgresState } from '../../../src/state/postgres/open.js';
import { captureLogger } from '../../helpers/capture-logger.js';
import { adminQuery, dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { postgresUrl } from '../../tiers.js';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { startTcpProxy, throughProxy } from '../../helpers/tcp-proxy.js';
import { seed, startStack, type Stack } from '../online/harness.js';
import { parseConfig } from '../../helpers/config.js';
import { systemClock, testRuntime } from '../../../src/runtime/index.js';

/** The test server (RAGWATCH_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test). */
const TEST_PG_URL = postgresUrl();

/** PostgreSQL state end to end: the same scores as SQLite, and readiness through a connection cut. */

const MIN = 60_000;
const closers: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
beforeAll(requirePostgres);

function schemaForTest(): string {
  const schema = testSchema('rw_e2e');
  closers.push(() => dropSchema(schema));
  return schema;
}

async function stackWithTraces(seedValue: number): Promise<Stack> {
  const stack = await startStack('v4');
  closers.push(() => stack.close());
  await seed(stack, 'v4', 60, new Date(Date.now() - 11 * MIN), seedValue);
  return stack;
}

function scoreTable(stack: Stack): string[] {
  return stack.lf.store
    .scores()
    .map((s) => `${s.id} ${s.traceId} ${s.name} ${s.value} ${s.comment ?? ''}`)
    .sort();
}

function stackSettings(stack: Stack) {
  return {
    langfuse: { baseUrl: stack.lf.url, publicKey: stack.lf.publicKey, secretKey: stack.lf.secretKey },
    judge: { baseUrl: stack.judge.url, model: stack.judge.model },
    embeddings: { model: stack.judge.embeddingModel },
    sampling: { rate: 0.5 },
    log: { level: 'warn' },
  };
}

async function readyz(d: Daemon) {
  const res = await fetch(`http://127.0.0.1:${d.http.port}/readyz`);
  return {
    status: res.status,
    checks: ((await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> }).checks,
  };
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PostgreSQL state end to end', () => {
  it('sample --once gives exactly the scores it gives on SQLite, and the ledgers agree', async () => {
    const onSqlite = await stackWithTraces(5);
    const onPostgres = await stackWithTraces(5);
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-pg-e2e-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const schema = schemaForTest();
    const sqliteFile = join(dir, 'sqlite.yaml');
    writeFileSync(sqliteFile, stringify({ ...stackSettings(onSqlite), state: { path: join(dir, 'state.db') } }));
    const pgFile = join(dir, 'pg.yaml');
    writeFileSync(pgFile, stringify({ ...stackSettings(onPostgres), state: { schema } }));

    const a = await runCli(['sample', '--once', '--config', sqliteFile], { timeoutMs: 120_000 });
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli(['sample', '--once', '--config', pgFile], {
      timeoutMs: 120_000,
      env: { RAGWATCH_STATE_URL: TEST_PG_URL },
    });
    expect(b.code, b.stderr).toBe(0);
    expect(scoreTable(onPostgres).length).toBeGreaterThan(10);
    expect(scoreTable(onPostgres)).toEqual(scoreTable(onSqlite));

    // status, doctor and retry-dead read the same state on PostgreSQL as on SQLite.
    const pgEnv = { RAGWATCH_STATE_URL: TEST_PG_URL };
    const statusA = JSON.parse((await runCli(['status', '--json', '--config', sqliteFile])).stdout) as Record<
      string,
      unknown
    >;
    const statusRun = await runCli(['status', '--json', '--config', pgFile], { env: pgEnv });
    expect(statusRun.code, statusRun.stderr).toBe(0);
    const statusB = JSON.parse(statusRun.stdout) as Record<string, unknown>;
    for (const key of ['totals', 'days', 'skipsByTraceName', 'dead', 'failing'])
      expect(statusB[key], key).toEqual(statusA[key]);
    expect(statusB.state).toMatchObject({
      exists: true,
      schemaVersion: PG_SCHEMA_VERSION,
      path: expect.stringContaining('postgres://'),
    });
    expect((statusB.jobs as { name: string; state: string }[]).find((j) => j.name === 'online')?.state).toBe('idle');
    const doctor = await runCli(['doctor', '--config', pgFile], { env: pgEnv });
    expect(doctor.stdout).toMatch(new RegExp(`schema ${schema} at version ${PG_SCHEMA_VERSION}, writable`));
    const retry = await runCli(['retry-dead', '--dry-run', '--json', '--config', pgFile], { env: pgEnv });
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ dryRun: true, count: 0 });

    const sqlite = openSqliteState({ path: join(dir, 'state.db') });
    const pg = await openPostgresState({ url: TEST_PG_URL, schema });
    try {
      expect(await pg.countByStatus()).toEqual(await sqlite.countByStatus());
      const strip = (e: { traceId: string; status: string; scoreIds: string[]; attempts: number }) => [
        e.traceId,
        e.status,
        e.scoreIds,
        e.attempts,
      ];
      expect((await pg.listByStatus('done', 1000)).map(strip)).toEqual(
        (await sqlite.listByStatus('done', 1000)).map(strip),
      );
      expect(await pg.getCursor('online')).not.toBeNull();
    } finally {
      await sqlite.close();
      await pg.close();
    }
  }, 300_000);

  it('a daemon tick on PostgreSQL writes the scores the same tick writes on SQLite', async () => {
    const scores: string[][] = [];
    for (const backend of ['sqlite', 'postgres'] as const) {
      const stack = await stackWithTraces(9);
      const config = parseConfig({
        ...stackSettings(stack),
        online: { schedule: '0 0 1 1 *' },
        http: { host: '127.0.0.1', port: 0 },
      });
      const state: StateStore =
        backend === 'sqlite'
          ? openSqliteState({ path: ':memory:' })
          : await openPostgresState({ url: TEST_PG_URL, schema: schemaForTest() });
      const daemon = await startDaemon({
        config,
        runtime: testRuntime({ now: systemClock, logger: captureLogger('warn').logger }),
        state,
      });
      closers.push(() => daemon.shutdown('test over'));
      await daemon.ready;
      await until(`the ${backend} catch-up tick`, async () =>
        (await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ? true : undefined,
      );
      await until('the tick to end', () => (daemon.scheduler.runningJobs().length === 0 ? true : undefined));
      scores.push(scoreTable(stack));
    }
    expect(scores[1]!.length).toBeGreaterThan(10);
    expect(scores[1]).toEqual(scores[0]);
  }, 300_000);

  it('is not ready while PostgreSQL is cut off, recovers by itself, and loses nothing', async () => {
    const stack = await stackWithTraces(13);
    const proxy = await startTcpProxy({
      host: new URL(TEST_PG_URL).hostname,
      port: Number(new URL(TEST_PG_URL).port || 5432),
    });
    closers.push(() => proxy.close());
    const url = throughProxy(TEST_PG_URL, proxy);
    // Time-scaled: 1 s statements and a tick every 2 s stand for 10 s and 5 min; the 30 s cut becomes 6 s.
    const config = parseConfig({
      ...stackSettings(stack),
      online: { schedule: '*/2 * * * * *' },
      state: { url, schema: schemaForTest(), statementTimeoutMs: 1000, connectTimeoutMs: 500 },
      http: { host: '127.0.0.1', port: 0 },
    });
    const logs = captureLogger('info');
    const daemon = await startDaemon({ config, runtime: testRuntime({ now: systemClock, logger: logs.logger }) });
    closers.push(() => daemon.shutdown('test over'));
    await daemon.ready;
    await until('ready on PostgreSQL', async () => ((await readyz(daemon)).status === 200 ? true : undefined));
    // Watching from beside the proxy: the daemon's own connections are the ones cut.
    const state = await openPostgresState({ url: TEST_PG_URL, schema: config.state.schema });
    closers.push(() => state.close());
    await until('a first tick', async () => ((await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ? true : undefined));
    const before = stack.lf.store.scores().length;
    expect(before).toBeGreaterThan(0);

    proxy.cut();
    const cutAt = Date.now();
    const down = await until('not ready', async () => {
      const r = await readyz(daemon);
      return r.status === 503 ? r : undefined;
    });
    expect(down.checks.state!.ok).toBe(false);
    expect(down.checks.state!.detail).toContain('state.url');
    expect(down.checks.state!.detail).toContain('unreachable');
    // New traces arrive while the state is out of reach: ticks fail without charging anything.
    await seed(stack, 'v4', 40, new Date(Date.now() - 10.2 * MIN), 17, 0.1);
    while (Date.now() - cutAt < 6000) {
      expect((await readyz(daemon)).status).toBe(503);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(logs.records().some((r) => r.error === 'state:unreachable')).toBe(true);

    proxy.restore();
    await until(
      'ready again, by itself',
      async () => ((await readyz(daemon)).status === 200 ? true : undefined),
      60_000,
    );
    // The traces that came during the cut are scored once PostgreSQL is back; nothing stays failed or dead.
    // Ready again says the server answers, not that a tick has listed what came meanwhile: wait for their scores.
    await until('every sampled trace settled', async () => {
      const c = await state.countByStatus();
      return c.pending === 0 && c.done > 0 && stack.lf.store.scores().length > before ? c : undefined;
    });
    const counts = await state.countByStatus();
    expect(counts.failed + counts.dead).toBe(0);
    const done = await state.listByStatus('done', 10_000);
    const written = new Set(stack.lf.store.scores().map((s) => s.id));
    for (const entry of done) for (const id of entry.scoreIds) expect(written.has(id)).toBe(true);
    expect(stack.lf.store.scores().length).toBeGreaterThan(before);
    expect(stack.lf.store.scores().length).toBe(new Set(stack.lf.store.scores().map((s) => s.id)).size);
  }, 300_000);
  it("status refuses a role without rights on the schema: exit 2 with doctor's line, not 'no runs yet'", async () => {
    const schema = schemaForTest();
    const owner = await openPostgresState({ url: TEST_PG_URL, schema });
    await owner.close();
    const role = `rw_norights_${process.pid}`;
    await adminQuery(`DROP ROLE IF EXISTS ${role}`);
    await adminQuery(`CREATE ROLE ${role} LOGIN`);
    closers.push(() => adminQuery(`DROP ROLE IF EXISTS ${role}`));
    const url = new URL(TEST_PG_URL);
    url.username = role;
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-pg-norights-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ragwatch.yaml');
    // Keys so that doctor gets past its configuration check; nothing answers on port 1.
    const langfuse = { baseUrl: 'http://127.0.0.1:1', publicKey: 'pk-lf-x', secretKey: 'sk-lf-x', maxAttempts: 1 };
    writeFileSync(file, stringify({ langfuse, state: { url: url.toString(), schema }, log: { level: 'silent' } }));

    const doctor = await runCliInProcess(['--config', file, 'doctor', '--timeout', '5'], { cwd: dir });
    const line = doctor.stdout.split('\n').find((l) => l.split(/\s+/)[1] === 'state')!;
    const doctorSays = line.replace(/^FAIL\s+state\s+/, '');
    expect(doctorSays).toMatch(/refused access: the role needs USAGE and CREATE on the schema/);

    const status = await runCliInProcess(['--config', file, 'status'], { cwd: dir });
    expect(status.code).toBe(2);
    expect(status.stderr.trim()).toBe(doctorSays);
    expect(status.stdout).toBe('');
  });
});
