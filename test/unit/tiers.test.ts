import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverRequirements, isSystemTest, REPO, SYSTEM_TESTS, skippedSystemTests, testFiles } from '../tiers.js';

/** What a test that needs something outside node_modules looks like in its source. */
// (Built from parts so this file does not match itself.)
const NEEDS_OUTSIDE = new RegExp(
  ['runTool', 'chromiumPath', 'postgresUrl', 'requirePostgres', 'buildDockerfile', 'spawnOnTmpfs']
    .map((f) => `${f}\\(`)
    .concat(['playwright-core', 'pg'].map((m) => `from '${m}'`))
    .join('|'),
);

describe('test tiers', () => {
  const files = testFiles();

  it('lists every system-tier file with what it needs, and nothing else', () => {
    expect(Object.keys(SYSTEM_TESTS).sort()).toEqual(files.filter(isSystemTest));
    for (const needs of Object.values(SYSTEM_TESTS)) expect(needs.length).toBeGreaterThan(0);
  });

  it('keeps every test that reaches outside node_modules in the system tier', () => {
    const offenders = files.filter((f) => !isSystemTest(f) && NEEDS_OUTSIDE.test(readFileSync(join(REPO, f), 'utf8')));
    expect(offenders).toEqual([]);
    // The pattern does see the system tier's files (the check is not a no-op).
    expect(files.filter((f) => isSystemTest(f) && NEEDS_OUTSIDE.test(readFileSync(join(REPO, f), 'utf8'))).length).toBe(
      Object.keys(SYSTEM_TESTS).length,
    );
  });

  it('finds nothing when the tools are hidden, and npm test then still selects no system-tier file', async () => {
    const nodeDir = dirname(process.execPath);
    const hidden = {
      PATH: nodeDir,
      HOME: process.env.HOME,
      RAGWATCH_TEST_PG_URL: 'postgres://x@127.0.0.1:1/none',
      CHROMIUM_PATH: '',
    };
    const found = await discoverRequirements({ ...hidden, PATH: '/nonexistent' });
    expect(found).toEqual({
      promtool: false,
      chromium: false,
      'systemd-analyze': false,
      postgresql: false,
      'npm-registry': false,
      'user-namespaces': false,
      xmllint: false,
    });

    // The suite's own file discovery, run with only node on the PATH.
    const vitest = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
    const res = spawnSync(process.execPath, [vitest, 'list', '--config', 'test/vitest.config.ts', '--filesOnly'], {
      cwd: REPO,
      env: hidden,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(0);
    const listed = res.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.endsWith('.test.ts'))
      .sort();
    expect(listed).toEqual(files.filter((f) => !isSystemTest(f)));
  });

  it('names each left-out file and what it needs', () => {
    const lines = skippedSystemTests(files);
    expect(lines).toHaveLength(Object.keys(SYSTEM_TESTS).length);
    expect(lines.find((l) => l.includes('promtool.system'))).toMatch(/needs promtool/);
  });
});
