import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { maskSecrets } from '../../../src/config/mask.js';
import { stateBackend } from '../../../src/state/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { loadConfig } from '../../helpers/config.js';

function load(raw: unknown, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-state-config-'));
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(raw));
  return { file, loaded: loadConfig({ file, env }) };
}

const URL_WITH_PASSWORD = 'postgres://ragwatch:s3cret-Pa55@db.internal:5432/langfuse?sslmode=require';

describe('state backend configuration', () => {
  it('keeps SQLite by default and takes PostgreSQL from state.url or RAGWATCH_STATE_URL', () => {
    const plain = load({}).loaded;
    expect(plain.ok && stateBackend(plain.config)).toBe('sqlite');
    const fromFile = load({ state: { url: URL_WITH_PASSWORD } }).loaded;
    expect(fromFile.ok && stateBackend(fromFile.config)).toBe('postgres');
    expect(fromFile.ok && fromFile.config.state).toMatchObject({
      schema: 'ragwatch',
      poolSize: 5,
      statementTimeoutMs: 10_000,
      tls: { mode: 'url' },
    });
    const fromEnv = load({}, { RAGWATCH_STATE_URL: URL_WITH_PASSWORD }).loaded;
    expect(fromEnv.ok && fromEnv.config.state.url).toBe(URL_WITH_PASSWORD);
  });

  it('refuses state.path and state.url together in one line naming both keys, and never quotes the password', () => {
    const both = load({ state: { path: 'ragwatch.db', url: URL_WITH_PASSWORD } }).loaded;
    expect(both.ok).toBe(false);
    if (both.ok) return;
    expect(both.problems).toEqual([
      'config: state.path, state.url: set one of them, not both: state.path keeps the state in an SQLite file, state.url in PostgreSQL',
    ]);
    const env = load(
      {},
      { RAGWATCH_STATE_PATH: '/var/lib/ragwatch/state.db', RAGWATCH_STATE_URL: URL_WITH_PASSWORD },
    ).loaded;
    expect(env.ok ? [] : env.problems).toEqual([
      "config: state.path (from RAGWATCH_STATE_PATH), state.url (from RAGWATCH_STATE_URL): set one of them, not both: state.path keeps the state in an SQLite file, state.url in PostgreSQL (RAGWATCH_STATE_PATH='' unsets it)",
    ]);
    const unset = load({}, { RAGWATCH_STATE_PATH: '', RAGWATCH_STATE_URL: URL_WITH_PASSWORD }).loaded;
    expect(unset.ok).toBe(true);
  });

  it('names bad keys: a URL that is not PostgreSQL, a schema name, the TLS mode', () => {
    const bad = load({ state: { url: 'mysql://x@y/z', schema: 'Bad-Name', tls: { mode: 'sometimes' } } }).loaded;
    expect(bad.ok ? [] : bad.problems.map((p) => p.split(':').slice(0, 2).join(':'))).toEqual([
      'config: state.url',
      'config: state.schema',
      'config: state.tls.mode',
    ]);
  });

  it('masks the password in config show and wherever a URL is printed', () => {
    const masked = maskSecrets({ state: { url: URL_WITH_PASSWORD } });
    expect(masked.state.url).toBe('postgres://ragwatch:***@db.internal:5432/langfuse?sslmode=require');
    expect(maskSecrets({ u: 'postgres://db/x?password=abc&sslmode=require' }).u).toBe(
      'postgres://db/x?password=***&sslmode=require',
    );
  });

  it('exits 2 before anything starts when both are set, and prints no password', async () => {
    const { file } = load({ state: { path: 'x.db', url: URL_WITH_PASSWORD } });
    const r = await runCli(['sample', '--once', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('state.path, state.url: set one of them, not both');
    expect(r.stderr + r.stdout).not.toContain('s3cret-Pa55');
  });
  it('config check shows the state backend in effect only', async () => {
    const postgres = load({ state: { url: URL_WITH_PASSWORD, schema: 'rw' } });
    const pg = await runCliInProcess(['--config', postgres.file, 'config', 'check', '--json']);
    expect(pg.code).toBe(0);
    const pgState = (JSON.parse(pg.stdout) as { state: Record<string, unknown> }).state;
    expect(pgState).toMatchObject({ url: 'postgres://ragwatch:***@db.internal:5432/langfuse?sslmode=require' });
    expect(pgState).toMatchObject({ schema: 'rw', poolSize: 5 });
    expect(pgState).not.toHaveProperty('path');
    const yaml = await runCliInProcess(['--config', postgres.file, 'config', 'check']);
    expect(yaml.stdout).not.toMatch(/^ {2}path:/m);
    expect(yaml.stdout).toMatch(/^ {2}url: postgres:/m);

    const sqlite = load({ state: { path: 'state/ragwatch.db' } });
    const lite = await runCliInProcess(['--config', sqlite.file, 'config', 'check', '--json']);
    expect((JSON.parse(lite.stdout) as { state: unknown }).state).toEqual({ path: 'state/ragwatch.db' });
  });
});
