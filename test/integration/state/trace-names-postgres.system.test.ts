import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceNameKey } from '../../../src/internal/index.js';
import { MIGRATIONS } from '../../../src/state/migrations.js';
import { openPostgresState } from '../../../src/state/postgres/open.js';
import { PG_MIGRATIONS } from '../../../src/state/postgres/migrations.js';
import { adminQuery, dropSchema, requirePostgres, TEST_PG_URL, testSchema } from '../../helpers/postgres.js';
import { runCli } from '../../helpers/run-cli.js';
import { TRACE_NAMES } from '../../helpers/trace-names.js';

const old = testSchema('rw_names_old');
const fresh = testSchema('rw_names_new');
const copied = testSchema('rw_names_copy');
let dir: string;

beforeAll(async () => {
  await requirePostgres();
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-names-pg-'));
}, 60_000);
afterAll(async () => {
  for (const s of [old, fresh, copied]) await dropSchema(s);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const q = (schema: string, sql: string, params: unknown[] = []) =>
  adminQuery(`SET search_path TO "${schema}"; ${sql}`, params);

describe('trace names on PostgreSQL', () => {
  it('rewrites the names of a schema written before (version 6) to the keys new entries get', async () => {
    await adminQuery(`CREATE SCHEMA "${old}"`);
    await q(old, 'CREATE TABLE schema_version (version INTEGER NOT NULL)');
    for (const step of PG_MIGRATIONS.filter((m) => m.version <= 6)) await q(old, step.sql);
    await q(old, 'INSERT INTO schema_version (version) VALUES (6)');
    for (const [i, name] of [...TRACE_NAMES, null].entries()) {
      await adminQuery(
        `INSERT INTO "${old}".ledger (trace_id, status, trace_timestamp, trace_name, sample_rate, first_seen_at, updated_at)
         VALUES ($1, 'done', 1, $2, 1, 1, 1)`,
        [`t${i}`, name],
      );
    }
    const state = await openPostgresState({ url: TEST_PG_URL, schema: old });
    try {
      for (const [i, name] of [...TRACE_NAMES, null].entries())
        expect((await state.getEntry(`t${i}`))?.traceName, String(name)).toBe(traceNameKey(name));
    } finally {
      await state.close();
    }
    const rows = await adminQuery(`SELECT trace_name FROM "${old}".ledger`);
    expect(JSON.stringify(rows.rows)).not.toMatch(/Ana García|611223344|ana\.garcia@/);
  }, 60_000);

  it('keeps new entries as keys', async () => {
    const state = await openPostgresState({ url: TEST_PG_URL, schema: fresh });
    try {
      await state.ensureEntries(
        TRACE_NAMES.map((name, i) => ({
          traceId: `t${i}`,
          traceTimestamp: 1,
          environment: null,
          traceName: name,
          sampleRate: 1,
        })),
        1,
      );
      await state.ensureEntry(
        { traceId: 'one', traceTimestamp: 1, environment: null, traceName: 'Pregunta de Ana', sampleRate: 1 },
        1,
      );
      for (const [i, name] of TRACE_NAMES.entries())
        expect((await state.getEntry(`t${i}`))?.traceName).toBe(traceNameKey(name));
      expect((await state.getEntry('one'))?.traceName).toBe(traceNameKey('Pregunta de Ana'));
    } finally {
      await state.close();
    }
  }, 60_000);

  it('state migrate copies the names of an older file as their keys', async () => {
    const path = join(dir, 'old.db');
    const file = new BetterSqlite3(path);
    for (const step of MIGRATIONS.filter((m) => m.version <= 6)) file.exec(step.sql);
    file.pragma('user_version = 6');
    const insert = file.prepare(
      `INSERT INTO ledger (trace_id, status, trace_timestamp, trace_name, sample_rate, first_seen_at, updated_at)
       VALUES (?, 'done', 1, ?, 1, 1, 1)`,
    );
    TRACE_NAMES.forEach((name, i) => insert.run(`t${i}`, name));
    file.close();
    const run = await runCli(['state', 'migrate', '--from', path, '--to', TEST_PG_URL, '--schema', copied]);
    expect(run.code, run.stderr).toBe(0);
    const rows = await adminQuery(`SELECT trace_id, trace_name FROM "${copied}".ledger ORDER BY trace_id`);
    const byId = new Map(rows.rows.map((r: { trace_id: string; trace_name: string }) => [r.trace_id, r.trace_name]));
    for (const [i, name] of TRACE_NAMES.entries()) expect(byId.get(`t${i}`)).toBe(traceNameKey(name));
    expect(run.stdout + run.stderr).not.toContain('Ana García');
  }, 120_000);
});
