import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { runCli } from '../../helpers/run-cli.js';

/** Each case spawns the real CLI through tsx, which is slow to start on a loaded machine. */
const CLI_TIMEOUT = 120_000;

let judge: JudgeServer;
const langfuse: Partial<Record<'v3' | 'v4', LangfuseServer>> = {};
let dir: string;

beforeAll(async () => {
  judge = await startJudgeServer({ host: '127.0.0.1', apiKey: 'judge-secret-key' });
  langfuse.v3 = await startLangfuseServer({ personality: 'v3', host: '127.0.0.1', secretKey: 'sk-lf-doctor-secret' });
  langfuse.v4 = await startLangfuseServer({ personality: 'v4', host: '127.0.0.1', secretKey: 'sk-lf-doctor-secret' });
  dir = mkdtempSync(join(tmpdir(), 'ragwatch-doctor-'));
});

afterAll(async () => {
  await Promise.all([judge?.close(), langfuse.v3?.close(), langfuse.v4?.close()]);
});

function configFile(
  name: string,
  overrides: {
    langfuse?: Record<string, unknown>;
    judge?: Record<string, unknown>;
    state?: Record<string, unknown>;
    embeddings?: Record<string, unknown>;
  } = {},
  personality: 'v3' | 'v4' = 'v4',
) {
  const server = langfuse[personality]!;
  const config = {
    langfuse: { baseUrl: server.url, publicKey: server.publicKey, secretKey: server.secretKey, ...overrides.langfuse },
    judge: { baseUrl: judge.url, model: judge.model, apiKey: 'judge-secret-key', ...overrides.judge },
    embeddings: { model: judge.embeddingModel, ...overrides.embeddings },
    state: { path: join(dir, 'state', 'ragwatch.db'), ...overrides.state },
  };
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(config));
  return file;
}

describe('ragwatch doctor', () => {
  for (const personality of ['v3', 'v4'] as const) {
    it(
      `passes every check against the stand-ins (${personality})`,
      async () => {
        const res = await runCli(['--config', configFile(`ok-${personality}`, {}, personality), 'doctor']);
        expect(res.stderr).toBe('');
        expect(res.code).toBe(0);
        const lines = res.stdout.trim().split('\n');
        expect(lines.filter((l) => l.startsWith('ok  ')).map((l) => l.split(/\s+/)[1])).toEqual([
          'langfuse',
          'judge-model',
          'judge-json-schema',
          'embeddings',
          'state',
        ]);
        expect(res.stdout).toContain(`API generation ${personality}`);
        expect(res.stdout).toContain(`dimension ${judge.embeddingDim}`);
        expect(res.stdout).toMatch(/doctor: all 5 checks passed/);
      },
      CLI_TIMEOUT,
    );
  }

  it(
    'gives a verdict per problem and exits 2 when Langfuse rejects the keys (configuration), 3 for a generation mismatch',
    async () => {
      const res = await runCli([
        '--config',
        configFile('wrong', {
          langfuse: { secretKey: 'sk-lf-wrong-secret-value' },
          judge: { model: 'qwen-does-not-exist' },
        }),
        'doctor',
      ]);
      expect(res.code).toBe(2);
      expect(res.stdout).toMatch(/^FAIL\s+langfuse\s+.*keys rejected \(HTTP 401\)/m);
      expect(res.stdout).toMatch(
        /^FAIL\s+judge-model\s+.*"qwen-does-not-exist" is not served \(served: .*ragwatch-standin-judge/m,
      );
      expect(res.stdout).toMatch(/^ok\s+state/m);
      expect(res.stdout + res.stderr).not.toContain('sk-lf-wrong-secret-value');
      expect(res.stdout + res.stderr).not.toContain('judge-secret-key');

      const mismatch = await runCli([
        '--config',
        configFile('mismatch', { langfuse: { apiGeneration: 'v3' } }, 'v4'),
        'doctor',
      ]);
      expect(mismatch.code).toBe(3);
      expect(mismatch.stdout).toMatch(/FAIL\s+langfuse\s+.*speaks the v4 API while langfuse.apiGeneration says v3/);
    },
    CLI_TIMEOUT,
  );

  it(
    'exits 3 when Langfuse and the judge are unreachable or the state path cannot be written',
    async () => {
      const closed = await startLangfuseServer({ personality: 'v3', host: '127.0.0.1' });
      const deadUrl = closed.url;
      await closed.close();
      writeFileSync(join(dir, 'a-file'), 'not a directory');
      const res = await runCli([
        '--config',
        configFile('down', {
          langfuse: { baseUrl: deadUrl },
          judge: { baseUrl: `${deadUrl}/v1` },
          state: { path: join(dir, 'a-file', 'ragwatch.db') },
        }),
        'doctor',
        '--timeout',
        '5',
      ]);
      expect(res.code).toBe(3);
      for (const name of ['langfuse', 'judge-model', 'judge-json-schema', 'embeddings', 'state'])
        expect(res.stdout).toMatch(new RegExp(`^FAIL\\s+${name}\\s`, 'm'));
      expect(res.stdout).toMatch(/doctor: 5 checks failed/);
    },
    CLI_TIMEOUT,
  );

  it(
    'exits 2 when the Langfuse keys are not configured',
    async () => {
      const res = await runCli([
        '--config',
        configFile('nokeys', { langfuse: { publicKey: '', secretKey: '' } }),
        'doctor',
      ]);
      expect(res.code).toBe(2);
      expect(res.stdout).toContain('langfuse.secretKey is not set');
    },
    CLI_TIMEOUT,
  );

  it(
    'prints JSON with --json',
    async () => {
      const res = await runCli(['--config', configFile('json'), 'doctor', '--json']);
      expect(res.code).toBe(0);
      const report = JSON.parse(res.stdout) as { checks: Array<{ name: string; verdict: string }> };
      expect(report.checks.every((c) => c.verdict === 'ok')).toBe(true);
    },
    CLI_TIMEOUT,
  );
});
