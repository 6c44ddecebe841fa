import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/run-cli.js';

/**
 * ragwatch as a production install lays it out, outside the repository: dist/ and a node_modules that
 * holds ragwatch's own dependencies only (links into the repository's), so `@ragwatch/devkit` cannot be
 * found by walking up. (The system tier does the same from a fresh `npm ci --omit=dev --workspaces=false`.)
 */
const built = inject('ragwatchCli');
const work = mkdtempSync(join(tmpdir(), 'ragwatch-no-devkit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function install(withDevkit: 'absent' | 'unbuilt'): string {
  const app = join(work, withDevkit);
  const build = dirname(dirname(built!));
  cpSync(build, app, { recursive: true, filter: (src) => !relative(build, src).startsWith('node_modules') });
  const pkg = (name: string) => join(app, 'node_modules', name);
  const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of Object.keys(root.dependencies)) {
    mkdirSync(dirname(pkg(name)), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules', name), pkg(name));
  }
  if (withDevkit === 'unbuilt') {
    mkdirSync(pkg('@ragwatch/devkit'), { recursive: true });
    cpSync(join(REPO_ROOT, 'devkit', 'package.json'), join(pkg('@ragwatch/devkit'), 'package.json'));
  }
  return app;
}

const cli = (app: string, args: string[]) =>
  spawnSync(process.execPath, [join(app, 'dist', 'cli.js'), ...args], { cwd: app, encoding: 'utf8', timeout: 60_000 });

describe('ragwatch without the devkit', () => {
  it('runs its commands, and `demo` exits 2 saying how to get the devkit', () => {
    const app = install('absent');
    const help = cli(app, ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('demo');
    const demo = cli(app, ['demo']);
    expect(demo.status, demo.stderr).toBe(2);
    expect(demo.stderr).toContain('demo: @ragwatch/devkit is not installed.');
    expect(demo.stderr).toContain('npm ci && npm run demo');
    expect(demo.stdout).toBe('');
    // Options are still checked first, with the devkit or without it.
    const bad = cli(app, ['demo', '--traces', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('demo: --traces: must be an integer');
  });

  it('says how to build the devkit when only its sources are installed', () => {
    const demo = cli(install('unbuilt'), ['demo']);
    expect(demo.status, demo.stderr).toBe(2);
    expect(demo.stderr).toContain('demo: @ragwatch/devkit is installed but not built');
    expect(demo.stderr).toContain('npm run build:devkit');
  });
});
