import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { maskSecrets } from '../../src/config/mask.js';
import { loadConfig } from '../helpers/config.js';

function tempConfig(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-config-'));
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('loadConfig', () => {
  it('gives working defaults when there is no file and no environment', () => {
    const loaded = loadConfig({ env: {}, cwd: mkdtempSync(join(tmpdir(), 'ragwatch-empty-')) });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.file).toBeNull();
    expect(loaded.config.sampling.rate).toBe(0.05);
    expect(loaded.config.sampling.salt).toBe('ragwatch-sampling-v1');
    expect(loaded.config.judge.temperature).toBe(0);
    expect(loaded.config.metrics.thresholds.faithfulness).toBe(0.85);
  });

  it('reads ragwatch.yaml from the working directory when no path is given', () => {
    const file = tempConfig('sampling:\n  rate: 0.1\n');
    const loaded = loadConfig({ env: {}, cwd: join(file, '..') });
    expect(loaded.ok && loaded.config.sampling.rate).toBe(0.1);
  });

  it('lets every deployment variable override the file', () => {
    const file = tempConfig('langfuse:\n  baseUrl: http://from-file:3000\n');
    const loaded = loadConfig({
      file,
      env: {
        LANGFUSE_HOST: 'http://older-name:3000',
        LANGFUSE_PUBLIC_KEY: 'pk-lf-1',
        LANGFUSE_SECRET_KEY: 'sk-lf-1',
        RAGWATCH_JUDGE_BASE_URL: 'http://vllm:8000/v1',
        RAGWATCH_JUDGE_MODEL: 'qwen',
        RAGWATCH_JUDGE_API_KEY: 'judge-key',
        RAGWATCH_EMBEDDINGS_BASE_URL: 'http://emb:8001/v1',
        RAGWATCH_EMBEDDINGS_MODEL: 'bge-m3',
        RAGWATCH_EMBEDDINGS_API_KEY: 'emb-key',
        RAGWATCH_STATE_PATH: '/var/lib/ragwatch/state.db',
        RAGWATCH_LOG_LEVEL: 'debug',
        RAGWATCH_HTTP_PORT: '9999',
      },
    });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const c = loaded.config;
    expect(c.langfuse).toMatchObject({ baseUrl: 'http://older-name:3000', publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' });
    expect(c.judge).toMatchObject({ baseUrl: 'http://vllm:8000/v1', model: 'qwen', apiKey: 'judge-key' });
    expect(c.embeddings).toMatchObject({ baseUrl: 'http://emb:8001/v1', model: 'bge-m3', apiKey: 'emb-key' });
    expect(c.state.path).toBe('/var/lib/ragwatch/state.db');
    expect(c.log.level).toBe('debug');
    expect(c.http.port).toBe(9999);
  });

  it('prefers LANGFUSE_BASE_URL over the older LANGFUSE_HOST', () => {
    const loaded = loadConfig({
      env: { LANGFUSE_BASE_URL: 'http://new:1', LANGFUSE_HOST: 'http://old:2' },
      cwd: tmpdir(),
    });
    expect(loaded.ok && loaded.config.langfuse.baseUrl).toBe('http://new:1');
  });

  it('reports one line per problem, naming the key path and the bad value', () => {
    const file = tempConfig('sampling:\n  rate: 1.5\njudge:\n  concurrency: 0\n  bogus: true\nlog:\n  level: loud\n');
    const loaded = loadConfig({ file, env: { RAGWATCH_HTTP_PORT: 'eighty' } });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.problems).toContain('config: sampling.rate: must be between 0 and 1 (got 1.5)');
    expect(loaded.problems).toContain('config: http.port: must be an integer (got "eighty" from RAGWATCH_HTTP_PORT)');
    expect(loaded.problems).toContain('config: judge.bogus: unknown key');
    expect(loaded.problems.some((p) => p.startsWith('config: judge.concurrency: '))).toBe(true);
    expect(loaded.problems.some((p) => p.startsWith('config: log.level: must be one of'))).toBe(true);
    expect(loaded.problems).toHaveLength(5);
  });

  it('names the line of a YAML syntax error', () => {
    const file = tempConfig('sampling:\n  rate: [0.1\n');
    const loaded = loadConfig({ file, env: {} });
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.problems[0]).toMatch(/invalid YAML \(line \d+\)/);
  });

  it('a value the YAML library warns about (an unknown tag) is a problem by line, never printed with its text', () => {
    const file = tempConfig('langfuse:\n  publicKey: pk-lf-1\n  secretKey: !secret sk-lf-do-not-print\n');
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const loaded = loadConfig({ file, env: {} });
      expect(emitted).not.toHaveBeenCalled();
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) {
        expect(loaded.problems).toEqual([`config: ${file}: line 3: an unknown YAML tag (ragwatch reads no tags)`]);
        expect(loaded.problems.join('\n')).not.toContain('sk-lf-do-not-print');
      }
    } finally {
      emitted.mockRestore();
    }
  });

  it('says so when the named file does not exist', () => {
    const loaded = loadConfig({ file: '/nonexistent/ragwatch.yaml', env: {} });
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.problems).toEqual(['config: file not found: /nonexistent/ragwatch.yaml']);
  });
});

describe('maskSecrets', () => {
  it('masks every secret-looking key at any depth and leaves the rest', () => {
    const masked = maskSecrets({
      langfuse: { secretKey: 'sk-lf-1234567890', baseUrl: 'http://x' },
      judge: { apiKey: 'short' },
      target: { headers: { Authorization: 'Bearer abcdefghijkl' } },
    });
    expect(masked.langfuse.secretKey).toBe('sk-***90');
    expect(masked.langfuse.baseUrl).toBe('http://x');
    expect(masked.judge.apiKey).toBe('***');
    expect(masked.target.headers.Authorization).toBe('***');
  });
});
