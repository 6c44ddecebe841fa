import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { dropSchema, requirePostgres, testSchema } from '../../helpers/postgres.js';
import { runCli } from '../../helpers/run-cli.js';
import { postgresUrl } from '../../tiers.js';

/** The test server speaks no TLS (`ssl = off`): a TLS setting that needs it is a configuration error. */
const TEST_PG_URL = postgresUrl();
const schema = testSchema('rw_tls');
let dir: string;

beforeAll(async () => {
  await requirePostgres();
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-tls-'));
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await dropSchema(schema);
});

function config(name: string, state: Record<string, unknown>): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      // Nothing answers here: the state is opened (and refused) before Langfuse is asked anything.
      langfuse: { baseUrl: 'http://127.0.0.1:9', publicKey: 'pk', secretKey: 'sk' },
      state: { schema, ...state },
      http: { host: '127.0.0.1', port: 0 },
      log: { level: 'info' },
    }),
  );
  return file;
}

const withParam = (url: string, param: string) => `${url}${url.includes('?') ? '&' : '?'}${param}`;

describe('TLS that does not match the PostgreSQL server', () => {
  it.each([
    ['sslmode=require in the URL', { url: withParam(TEST_PG_URL, 'sslmode=require') }],
    ['sslmode=verify-full in the URL', { url: withParam(TEST_PG_URL, 'sslmode=verify-full') }],
    ['state.tls.mode: require', { url: TEST_PG_URL, tls: { mode: 'require' } }],
  ])(
    '%s: a configuration error, exit 2 with the server’s reason, no driver warning',
    async (name, state) => {
      for (const args of [['status'], ['run'], ['sample', '--once', '--no-progress']]) {
        const result = await runCli(['--config', config(name.replace(/\W+/g, '-'), state), ...args], {
          timeoutMs: 30_000,
        });
        expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
        const lines = result.stderr.trim().split('\n');
        const line = lines.find((l) => l.startsWith('state.url: '));
        expect(line, result.stderr).toBeDefined();
        expect(line).toContain('TLS');
        // The server's reason, as the driver heard it.
        expect(line).toContain('The server does not support SSL connections');
        expect(result.stderr).not.toContain('SECURITY WARNING');
        expect(result.stderr).not.toMatch(/\(node:\d+\)/);
      }
    },
    120_000,
  );

  it('sslmode=disable reaches the same server', async () => {
    const result = await runCli(
      ['--config', config('disable', { url: withParam(TEST_PG_URL, 'sslmode=disable') }), 'status'],
      {
        timeoutMs: 30_000,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('SECURITY WARNING');
  }, 60_000);
});
