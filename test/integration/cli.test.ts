import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { VERSION } from '../../src/version.js';

describe('ragwatch CLI', () => {
  it('prints its version and help', async () => {
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('config');
  });

  it('config check prints the effective config with secrets masked', async () => {
    const res = await runCli(['config', 'check', '--json'], {
      env: { LANGFUSE_SECRET_KEY: 'sk-lf-very-secret-value', RAGWATCH_JUDGE_API_KEY: 'judge-secret-key' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('very-secret');
    expect(res.stdout).not.toContain('judge-secret-key');
    const printed = JSON.parse(res.stdout);
    expect(printed.langfuse.secretKey).toBe('sk-***ue');
  });

  it('exits 2 with one line per problem on invalid config', async () => {
    const res = await runCli(['config', 'check'], { env: { RAGWATCH_HTTP_PORT: '70000', RAGWATCH_LOG_LEVEL: 'loud' } });
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toEqual([
      'config: http.port: must be between 0 and 65535 (got 70000 from RAGWATCH_HTTP_PORT)',
      'config: log.level: must be one of fatal, error, warn, info, debug, trace, silent (got "loud" from RAGWATCH_LOG_LEVEL)',
    ]);
  });
});
