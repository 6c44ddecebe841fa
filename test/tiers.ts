import { accessSync, constants, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpfsAvailable } from './helpers/tmpfs.js';

/**
 * The two test tiers. `npm test` runs every test that needs nothing outside node_modules; `npm run
 * test:system` runs the `*.system.test.ts` files, which need a tool or a server. This file says which
 * file needs what and how to get it, and finds out what this machine has.
 */

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const SYSTEM_SUFFIX = '.system.test.ts';

export type Requirement =
  'promtool' | 'chromium' | 'systemd-analyze' | 'postgresql' | 'npm-registry' | 'user-namespaces' | 'xmllint';

export interface RequirementInfo {
  what: string;
  /** How to get it on Debian (what `.ci/run` does). */
  install: string;
}

export const REQUIREMENTS: Record<Requirement, RequirementInfo> = {
  promtool: { what: 'promtool (Prometheus)', install: 'apt-get install prometheus' },
  chromium: { what: 'headless Chromium', install: 'apt-get install chromium (or set CHROMIUM_PATH)' },
  'systemd-analyze': { what: 'systemd-analyze', install: 'apt-get install systemd' },
  postgresql: {
    what: 'a PostgreSQL server',
    install: 'a server on RAGWATCH_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test)',
  },
  'npm-registry': {
    what: 'the npm registry and a C++ toolchain (a fresh npm ci)',
    install: 'network access to registry.npmjs.org, python3, make, g++',
  },
  xmllint: { what: 'xmllint (libxml2)', install: 'apt-get install libxml2-utils' },
  'user-namespaces': {
    what: 'unshare and user namespaces (a private tmpfs mount)',
    install: 'apt-get install util-linux; sysctl kernel.unprivileged_userns_clone=1 where it is off',
  },
};

/** Every system-tier test file and what it needs. A unit test keeps this list and the files in step. */
export const SYSTEM_TESTS: Record<string, readonly Requirement[]> = {
  'test/integration/deploy/dockerfile.system.test.ts': ['npm-registry'],
  'test/integration/deploy/fresh-daemon-alerts.system.test.ts': ['promtool'],
  'test/integration/deploy/promtool.system.test.ts': ['promtool'],
  'test/integration/deploy/systemd.system.test.ts': ['systemd-analyze'],
  'test/integration/demo/report-screenshot.system.test.ts': ['chromium'],
  'test/integration/experiment/junit.system.test.ts': ['xmllint'],
  'test/integration/experiment/report-browser.system.test.ts': ['chromium'],
  'test/integration/service/full-disk.system.test.ts': ['user-namespaces'],
  'test/integration/state/conformance-postgres.system.test.ts': ['postgresql'],
  'test/integration/state/postgres-daemon.system.test.ts': ['postgresql'],
  'test/integration/state/postgres-reports.system.test.ts': ['postgresql'],
  'test/integration/state/postgres-tls.system.test.ts': ['postgresql'],
  'test/integration/state/replicas-chaos.system.test.ts': ['postgresql'],
  'test/integration/state/state-migrate.system.test.ts': ['postgresql'],
  'test/integration/state/trace-names-postgres.system.test.ts': ['postgresql'],
};

/** All test files under `test/`, repository-relative, sorted. */
export function testFiles(root = REPO): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) out.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(join(root, 'test'));
  return out.sort();
}

export const isSystemTest = (file: string) => file.endsWith(SYSTEM_SUFFIX);

/** The absolute path of `command` on `env.PATH`, or null. */
export function which(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** Chromium as the browser test starts it: `CHROMIUM_PATH`, else `chromium` on the PATH. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) {
    try {
      accessSync(env.CHROMIUM_PATH, constants.X_OK);
      return env.CHROMIUM_PATH;
    } catch {
      return null;
    }
  }
  return which('chromium', env) ?? which('chromium-browser', env);
}

export function postgresUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.RAGWATCH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** Whether something accepts TCP connections where the test PostgreSQL should be. */
export function postgresAnswers(env: NodeJS.ProcessEnv = process.env, timeoutMs = 1000): Promise<boolean> {
  const url = new URL(postgresUrl(env));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** What this machine has, per requirement. The npm registry is not probed: it is assumed where npm ci ran. */
export async function discoverRequirements(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<Requirement, boolean>> {
  return {
    promtool: which('promtool', env) !== null,
    chromium: chromiumPath(env) !== null,
    'systemd-analyze': which('systemd-analyze', env) !== null,
    postgresql: await postgresAnswers(env),
    'npm-registry': which('npm', env) !== null,
    'user-namespaces': which('unshare', env) !== null && tmpfsAvailable(env),
    xmllint: which('xmllint', env) !== null,
  };
}

/** One line per system-tier file: what `npm test` leaves out and how to run it. */
export function skippedSystemTests(files = testFiles()): string[] {
  return files.filter(isSystemTest).map((file) => {
    const needs = (SYSTEM_TESTS[file] ?? []).map((r) => REQUIREMENTS[r].what).join(', ');
    return `${file} (needs ${needs || 'an unknown requirement'})`;
  });
}
