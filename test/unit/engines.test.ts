import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on the supported Node prints no EBADENGINE warning: every package the lockfile installs accepts this
 * Node (the tests run on the Node the project supports) and declares no engine npm cannot read as a version
 * range (a package that says "npm": "please-use-pnpm" warns on every install).
 */

const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

interface LockedPackage {
  version?: string;
  engines?: Record<string, string>;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** Packages npm installs on this machine: platform-specific optional ones for another OS or CPU are skipped. */
function installedHere(p: LockedPackage): boolean {
  const fits = (list: string[] | undefined, value: string) =>
    !list || list.some((x) => x === value) || (list.every((x) => x.startsWith('!')) && !list.includes(`!${value}`));
  return fits(p.os, process.platform) && fits(p.cpu, process.arch);
}

describe('engines in the lockfile', () => {
  const node = process.versions.node;
  const installed = Object.entries(lock.packages).filter(([path, p]) => path !== '' && installedHere(p));

  it(`every installed package accepts Node ${node}`, () => {
    const refusing = installed
      .filter(([, p]) => p.engines?.node !== undefined && !semver.satisfies(node, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it('no installed package declares an engine npm cannot read', () => {
    const unreadable = installed.flatMap(([path, p]) =>
      Object.entries(p.engines ?? {})
        .filter(([, range]) => semver.validRange(range) === null)
        .map(([engine, range]) => `${path}@${p.version}: engines.${engine} "${range}"`),
    );
    expect(unreadable).toEqual([]);
  });
});
