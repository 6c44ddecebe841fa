import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../helpers/config.js';

function problemsOf(raw: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-report-access-'));
  const file = join(dir, 'ragwatch.yaml');
  writeFileSync(file, stringify(raw));
  const loaded = loadConfig({ file, env });
  return loaded.ok ? [] : loaded.problems;
}

const experiment = { enabled: true, target: { url: 'http://rag:8080/ask' } };
const TOKEN = 'tok-0123456789abcdef';
const SECRET = 'sec-0123456789abcdef0123456789abcdef';

describe('/reports/ is protected, or public on purpose', () => {
  it('asks for the token and the signing secret while the experiment serves reports, naming each key', () => {
    expect(problemsOf({ experiment })).toEqual([
      expect.stringMatching(
        /^config: http\.reportsToken: is required while experiment\.enabled serves \/reports\/.*RAGWATCH_REPORTS_TOKEN.*http\.reportsPublic: true$/,
      ),
      expect.stringMatching(/^config: http\.reportsSigningSecret: is required .*RAGWATCH_REPORTS_SIGNING_SECRET/),
    ]);
    expect(
      problemsOf({ experiment }, { RAGWATCH_REPORTS_TOKEN: TOKEN, RAGWATCH_REPORTS_SIGNING_SECRET: SECRET }),
    ).toEqual([]);
    expect(problemsOf({ experiment, http: { reportsPublic: true } })).toEqual([]);
    // Nothing is served without the experiment: nothing to protect.
    expect(problemsOf({})).toEqual([]);
  });

  it('refuses a short token or secret without quoting it, and public reports with a token beside them', () => {
    const short = problemsOf(
      { experiment },
      { RAGWATCH_REPORTS_TOKEN: 'short', RAGWATCH_REPORTS_SIGNING_SECRET: 'tiny' },
    );
    expect(short).toEqual([
      'config: http.reportsToken: must be at least 16 characters (from RAGWATCH_REPORTS_TOKEN)',
      'config: http.reportsSigningSecret: must be at least 32 characters (from RAGWATCH_REPORTS_SIGNING_SECRET)',
    ]);
    expect(problemsOf({ http: { reportsPublic: true, reportsToken: TOKEN } })).toEqual([
      expect.stringMatching(/^config: http\.reportsPublic: true serves \/reports\/ to anyone/),
    ]);
  });
});
