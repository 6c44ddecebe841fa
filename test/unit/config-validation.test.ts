import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { z } from 'zod';
import { maskSecrets } from '../../src/config/mask.js';
import { configSchema, loadConfig } from '../helpers/config.js';

/** The problems `raw` (a config file's content) and `env` give, or [] when the configuration is valid. */
function problemsOf(raw: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-validation-'));
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(raw));
  const loaded = loadConfig({ file, env });
  return loaded.ok ? [] : loaded.problems;
}

/** Every numeric key of the schema, as a path, walking through defaults, prefaults, optionals and refinements. */
function numericKeys(schema: z.ZodType, prefix: string[] = []): string[][] {
  let s = schema as unknown as {
    _zod: { def: { type: string; innerType?: unknown; in?: unknown } };
    shape?: Record<string, z.ZodType>;
  };
  for (;;) {
    const def = s._zod.def;
    if (['default', 'prefault', 'optional', 'nullable'].includes(def.type)) s = def.innerType as typeof s;
    else if (def.type === 'pipe') s = def.in as typeof s;
    else break;
  }
  if (s._zod.def.type === 'number') return [prefix];
  if (s._zod.def.type !== 'object' || !s.shape) return [];
  return Object.entries(s.shape).flatMap(([key, child]) => numericKeys(child, [...prefix, key]));
}

function withValue(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

describe('config validation: schedules', () => {
  it.each(['online', 'experiment'])(
    'rejects a %s.schedule that is not a cron expression, in one line naming the key',
    (section) => {
      expect(problemsOf({ [section]: { schedule: 'not a cron' } })).toEqual([
        `config: ${section}.schedule: must be a cron expression (5 or 6 fields, such as "*/5 * * * *") (got "not a cron")`,
      ]);
      expect(problemsOf({ [section]: { schedule: '61 * * * *' } })).toHaveLength(1);
      // a day that never comes never fires
      expect(problemsOf({ [section]: { schedule: '0 0 31 2 *' } })).toHaveLength(1);
    },
  );

  it('accepts 5- and 6-field expressions and nicknames', () => {
    for (const schedule of ['*/5 * * * *', '0 3 * * 1', '*/30 * * * * *', '@daily'])
      expect(problemsOf({ online: { schedule } }), schedule).toEqual([]);
  });
});

describe('config validation: http.host', () => {
  it.each(['bad host!', 'http://0.0.0.0', '[::1]', '0.0.0.0:9464', '', 'a'.repeat(64) + '.example'])(
    'rejects a malformed host %j in one line',
    (host) => {
      const problems = problemsOf({ http: { host } });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^config: http\.host: must be an IP address or a host name/);
    },
  );

  it.each(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost', 'ragwatch.internal', 'metrics-1.rag.svc.cluster.local'])(
    'accepts %j',
    (host) => {
      expect(problemsOf({ http: { host } })).toEqual([]);
    },
  );
});

describe('config validation: the experiment', () => {
  it('needs a target URL when enabled, unless it replays stored outputs', () => {
    // Reports served to anyone: the token and the signing secret of /reports/ are another test's.
    const http = { reportsPublic: true };
    expect(problemsOf({ http, experiment: { enabled: true } })).toEqual([
      'config: experiment.target.url: is required when experiment.enabled is true (or set experiment.target.mode: replay)',
    ]);
    expect(problemsOf({ http, experiment: { enabled: true, target: { mode: 'replay' } } })).toEqual([]);
    expect(problemsOf({ http, experiment: { enabled: true, target: { url: 'http://rag:8080/ask' } } })).toEqual([]);
    expect(problemsOf({ experiment: { enabled: false } })).toEqual([]);
  });
});

describe('config validation: numeric bounds', () => {
  const keys = numericKeys(configSchema as unknown as z.ZodType);

  it('finds the numeric keys', () => {
    expect(keys.map((k) => k.join('.'))).toEqual(
      expect.arrayContaining([
        'judge.concurrency',
        'http.port',
        'experiment.bootstrapSamples',
        'online.settleDelaySeconds',
      ]),
    );
    expect(keys.length).toBeGreaterThan(40);
  });

  it('bounds every numeric key above and below, one line per key', () => {
    for (const path of keys) {
      const key = path.join('.');
      for (const value of [1e12, -1e12, 1.5e300]) {
        const problems = problemsOf(withValue(path, value));
        expect(problems, `${key} = ${value}`).toHaveLength(1);
        expect(problems[0], key).toMatch(new RegExp(`^config: ${key.replaceAll('.', '\\.')}: must be `));
      }
    }
  });

  it('says judge.concurrency: 1e9 is out of range', () => {
    expect(problemsOf({ judge: { concurrency: 1e9 } })).toEqual([
      'config: judge.concurrency: must be between 1 and 1024 (got 1000000000)',
    ]);
  });

  it("accepts each key's default, and any value inside the bounds it names", () => {
    const defaults = configSchema.parse({}) as unknown as Record<string, unknown>;
    for (const path of keys) {
      const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], defaults);
      if (value === undefined) continue;
      expect(problemsOf(withValue(path, value)), path.join('.')).toEqual([]);
      const line = problemsOf(withValue(path, 1e12))[0] ?? '';
      const m = /between (-?[\d.]+) and (-?[\d.]+)/.exec(line);
      if (!m) continue;
      const [lo, hi] = [Number(m[1]), Number(m[2])];
      const integer = !/0\.\d|\d\.\d/.test(`${m[1]} ${m[2]}`) && Number.isInteger(value);
      fc.assert(
        fc.property(integer ? fc.integer({ min: lo, max: hi }) : fc.double({ min: lo, max: hi, noNaN: true }), (v) => {
          // cross-key rules (a field budget within the trace budget) may still object; the key's own range never does
          expect(
            problemsOf(withValue(path, v)).filter((p) => p.includes('must be between')),
            `${path.join('.')} = ${v}`,
          ).toEqual([]);
        }),
        { numRuns: 5 },
      );
    }
  });
});

describe('config validation: the read budget', () => {
  it('keeps a field within the trace budget, and large enough that the token budgets always cut after it', () => {
    expect(problemsOf({ langfuse: { maxTraceBytes: 65_536, maxFieldBytes: 131_072 } })).toEqual([
      'config: langfuse.maxFieldBytes: must be at most langfuse.maxTraceBytes (65536) (got 131072)',
    ]);
    expect(problemsOf({ langfuse: { maxFieldBytes: 8192 } })).toEqual([
      'config: langfuse.maxFieldBytes: must be at least 96000 (16 bytes per token of metrics.maxContextTokens), so a text cut while it is read is cut again before the judge sees it (got 8192)',
    ]);
    expect(
      problemsOf({
        langfuse: { maxFieldBytes: 8192 },
        metrics: { maxContextTokens: 400, maxAnswerTokens: 400, maxReferenceTokens: 400 },
      }),
    ).toEqual([]);
  });
});

describe('config validation: environment overrides', () => {
  it('gives one line for an out-of-range RAGWATCH_HTTP_PORT, whatever its size or sign', () => {
    expect(problemsOf({}, { RAGWATCH_HTTP_PORT: '70000' })).toEqual([
      'config: http.port: must be between 0 and 65535 (got 70000 from RAGWATCH_HTTP_PORT)',
    ]);
    expect(problemsOf({}, { RAGWATCH_HTTP_PORT: '99999999999999999999' })).toEqual([
      'config: http.port: must be between 0 and 65535 (got 100000000000000000000 from RAGWATCH_HTTP_PORT)',
    ]);
    expect(problemsOf({}, { RAGWATCH_HTTP_PORT: '-1' })).toEqual([
      'config: http.port: must be between 0 and 65535 (got -1 from RAGWATCH_HTTP_PORT)',
    ]);
    expect(problemsOf({}, { RAGWATCH_HTTP_PORT: 'eighty' })).toEqual([
      'config: http.port: must be an integer (got "eighty" from RAGWATCH_HTTP_PORT)',
    ]);
    expect(problemsOf({}, { RAGWATCH_HTTP_PORT: '9464.5' })).toEqual([
      'config: http.port: must be an integer (got "9464.5" from RAGWATCH_HTTP_PORT)',
    ]);
  });
});

describe('config validation: credentials in URLs', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['langfuse.baseUrl', ['langfuse', 'baseUrl'], /LANGFUSE_PUBLIC_KEY/],
    ['judge.baseUrl', ['judge', 'baseUrl'], /judge\.apiKey/],
    ['embeddings.baseUrl', ['embeddings', 'baseUrl'], /embeddings\.apiKey/],
    ['experiment.target.url', ['experiment', 'target', 'url'], /experiment\.target\.headers/],
    ['experiment.publicUrl', ['experiment', 'publicUrl'], /credentials/],
  ];

  it.each(cases)('rejects user:password in %s with a hint, never printing them', (key, path, hint) => {
    for (const url of [
      'http://admin:hunter2-secret@langfuse:3000',
      'https://hunter2-secret@vllm:8000/v1',
      'http://:hunter2-secret@x',
    ]) {
      const problems = problemsOf(withValue(path, url));
      expect(problems, url).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^config: ${key.replaceAll('.', '\\.')}: must not contain credentials`));
      expect(problems[0]).toMatch(hint);
      expect(problems[0]).not.toMatch(/hunter2|admin/);
    }
  });

  it('does not print secret values when they have the wrong type', () => {
    const problems = problemsOf({
      langfuse: { secretKey: 1234567890123 },
      experiment: { target: { headers: { 'X-Api-Key': 9876543210987 } } },
    });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toMatch(/1234567890123|9876543210987/);
  });
});

describe('maskSecrets: experiment.target.headers', () => {
  it('masks every header value, whatever the header is called, and keeps environment references readable', () => {
    const masked = maskSecrets({
      experiment: {
        target: {
          url: 'http://rag:8080/ask',
          headers: {
            'X-Api-Key': 'k-1234567890abcdef',
            'X-Tenant': 'acme-secret-tenant',
            Authorization: 'Bearer ${RAG_TOKEN}',
            'X-Short': 'abc',
          },
        },
      },
    });
    const headers = masked.experiment.target.headers;
    expect(JSON.stringify(headers)).not.toMatch(/1234567890|acme-secret|abc"/);
    expect(headers.Authorization).toBe('***${RAG_TOKEN}');
    expect(headers['X-Short']).toBe('***');
    expect(masked.experiment.target.url).toBe('http://rag:8080/ask');
  });

  it('masks keys spelled with a dash (X-Api-Key) wherever they appear', () => {
    expect(maskSecrets({ other: { 'X-Api-Key': 'k-1234567890abcdef' } }).other['X-Api-Key']).not.toContain(
      '1234567890',
    );
  });
});

describe('config validation: calibrate', () => {
  it('names the key of each bad value, one line each', () => {
    expect(problemsOf({ calibrate: { scale: 'stars' } })).toEqual([
      expect.stringMatching(/^config: calibrate\.scale: /),
    ]);
    expect(problemsOf({ calibrate: { metrics: ['context_recall'] } })).toEqual([
      expect.stringMatching(/^config: calibrate\.metrics\.0: context_recall needs a reference answer/),
    ]);
    expect(problemsOf({ calibrate: { cuts: { faithfulness: { partly: 0.6 } } } })).toEqual([
      'config: calibrate.cuts.faithfulness.partly: must be between 0.05 and 0.5 (got 0.6)',
    ]);
    expect(problemsOf({ calibrate: { rate: 0 } })).toEqual([
      'config: calibrate.rate: must be between 0.0001 and 1 (got 0)',
    ]);
    expect(problemsOf({ calibrate: { anchors: { tolerance: 2 } } })).toEqual([
      'config: calibrate.anchors.tolerance: must be between 0.001 and 0.5 (got 2)',
    ]);
    expect(problemsOf({ calibrate: { queue: '' } })).toEqual(['config: calibrate.queue: must not be empty (got "")']);
  });

  it('keeps ragwatch’s score names apart from people’s', () => {
    expect(problemsOf({ metrics: { scorePrefix: 'human-' } })).toEqual([
      'config: metrics.scorePrefix: must not start with "human-": people\'s scores are named so (got "human-")',
    ]);
  });
});
