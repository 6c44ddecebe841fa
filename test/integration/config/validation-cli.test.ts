import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../../src/program.js';
import { runCli } from '../../helpers/run-cli.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function configDir(config: Record<string, unknown>): { dir: string; file: string; statePath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-validation-cli-'));
  dirs.push(dir);
  const statePath = join(dir, 'state.db');
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify({ state: { path: statePath }, ...config }));
  return { dir, file, statePath };
}

const lines = (text: string) => text.trim().split('\n');

describe('configuration errors stop every command with exit 2 before anything starts', () => {
  it('an invalid cron fails config check and run (not exit 3 as an unreachable Langfuse)', async () => {
    const { file, statePath } = configDir({ online: { schedule: 'not a cron' } });
    const check = await runCliInProcess(['config', 'check', '--config', file]);
    expect(check.code).toBe(2);
    expect(lines(check.stderr)).toEqual([
      'config: online.schedule: must be a cron expression (5 or 6 fields, such as "*/5 * * * *") (got "not a cron")',
    ]);
    const run = await runCliInProcess(['run', '--config', file]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(lines(check.stderr));
    expect(existsSync(statePath)).toBe(false);
  });

  it('a malformed http.host is one line naming the key, not a stack trace', async () => {
    const { file, statePath } = configDir({ http: { host: 'bad host!' } });
    const run = await runCliInProcess(['run', '--config', file]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'config: http.host: must be an IP address or a host name (such as 0.0.0.0, :: or localhost) (got "bad host!")',
    ]);
    expect(existsSync(statePath)).toBe(false);
  });

  it('an http.host that does not resolve stops run before the state file is opened', async () => {
    const { file, statePath } = configDir({ http: { host: 'ragwatch-metrics.example' } });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d) => (err += d));
    const looked: string[] = [];
    const code = await main(['run', '--config', file], {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env: {},
      cwd: process.cwd(),
      lookup: async (host) => {
        looked.push(host);
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    });
    expect(code).toBe(2);
    expect(looked).toEqual(['ragwatch-metrics.example']);
    expect(lines(err)).toEqual([
      'config: http.host: cannot be resolved on this machine (got "ragwatch-metrics.example": ENOTFOUND)',
    ]);
    expect(existsSync(statePath)).toBe(false);
  });

  it('an http.host address that is not on this machine is exit 2 naming the key (a real bind, in a real process)', async () => {
    // 192.0.2.1 is TEST-NET-1: never a local address, and binding to it sends nothing anywhere.
    const { file } = configDir({ http: { host: '192.0.2.1', port: 0 }, online: { enabled: false } });
    const run = await runCli(['run', '--config', file], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(lines(run.stderr).filter((l) => !l.startsWith('{'))).toEqual([
      'config: http.host: cannot listen on 192.0.2.1:0: the address is not on this machine',
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('experiment.enabled without a target URL, and judge.concurrency: 1e9, fail config check', async () => {
    const { file } = configDir({ experiment: { enabled: true }, judge: { concurrency: 1e9 } });
    const check = await runCliInProcess(['config', 'check', '--config', file]);
    expect(check.code).toBe(2);
    expect(lines(check.stderr)).toEqual([
      'config: judge.concurrency: must be between 1 and 1024 (got 1000000000)',
      'config: experiment.target.url: is required when experiment.enabled is true (or set experiment.target.mode: replay)',
      "config: http.reportsToken: is required while experiment.enabled serves /reports/ (the reports hold the golden set, the answers and the judge's reasons): set RAGWATCH_REPORTS_TOKEN from a Secret, or http.reportsPublic: true",
      'config: http.reportsSigningSecret: is required while experiment.enabled records report links in Langfuse (they are signed with it): set RAGWATCH_REPORTS_SIGNING_SECRET from the same Secret, or http.reportsPublic: true',
    ]);
  });

  it('an out-of-range RAGWATCH_HTTP_PORT is one line', async () => {
    const check = await runCliInProcess(['config', 'check'], {
      env: { RAGWATCH_HTTP_PORT: '99999999999999999999' },
      cwd: tmpdir(),
    });
    expect(check.code).toBe(2);
    expect(lines(check.stderr)).toEqual([
      'config: http.port: must be between 0 and 65535 (got 100000000000000000000 from RAGWATCH_HTTP_PORT)',
    ]);
  });
});

describe('credentials and headers are never printed', () => {
  it('config check rejects a URL with credentials without echoing them, and masks every target header', async () => {
    const bad = configDir({ langfuse: { baseUrl: 'http://pk-lf-user:sk-lf-hunter2@langfuse:3000' } });
    const rejected = await runCliInProcess(['config', 'check', '--config', bad.file]);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(/^config: langfuse\.baseUrl: must not contain credentials/);
    expect(rejected.stderr).not.toMatch(/hunter2|pk-lf-user/);

    const good = configDir({
      experiment: {
        target: {
          url: 'http://rag:8080/ask',
          headers: {
            'X-Api-Key': 'rag-key-0123456789',
            'X-Tenant': 'tenant-secret-42',
            Authorization: 'Bearer ${RAG_TOKEN}',
          },
        },
      },
    });
    for (const format of [[], ['--json']]) {
      const check = await runCliInProcess(['config', 'check', '--config', good.file, ...format]);
      expect(check.code).toBe(0);
      expect(check.stdout).not.toMatch(/0123456789|tenant-secret/);
      expect(check.stdout).toContain('${RAG_TOKEN}');
    }
  });
});
