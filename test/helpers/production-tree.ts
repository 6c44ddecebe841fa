/**
 * What a production install of ragwatch may hold, read from package-lock.json: the packages reachable from
 * the root package's dependencies (npm's lookup: a dependency is the nearest `node_modules/<name>` up from
 * the package that needs it), and the devkit's packages that are not among them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
}

export interface Lockfile {
  packages: Record<string, LockPackage>;
}

function needs(p: LockPackage): string[] {
  const optionalPeer = (name: string) => p.peerDependenciesMeta?.[name]?.optional === true;
  const peers = Object.keys(p.peerDependencies ?? {}).filter((name) => !optionalPeer(name));
  return [...Object.keys(p.dependencies ?? {}), ...Object.keys(p.optionalDependencies ?? {}), ...peers];
}

/** The lockfile path `name` resolves to from the package at `from` ('' is the root), or undefined. */
export function resolveFrom(lock: Lockfile, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === '' || !base.includes('node_modules/')) {
      // a workspace folder (`devkit`) looks next in the root's node_modules
      if (base === '') return undefined;
      base = '';
      continue;
    }
    const up = base.lastIndexOf('/node_modules/');
    base = up === -1 ? '' : base.slice(0, up);
  }
}

/** Every lockfile path (`node_modules/…`) an install of what `start` depends on holds. */
export function closure(lock: Lockfile, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string) => {
    for (const name of needs(lock.packages[from] ?? {})) {
      const path = resolveFrom(lock, from, name);
      if (path === undefined || seen.has(path) || lock.packages[path]?.link) continue;
      seen.add(path);
      visit(path);
    }
  };
  visit(start);
  return seen;
}

/** The production tree (`npm ci --omit=dev --workspaces=false`): the root package's dependencies. */
export const productionPackages = (lock: Lockfile) => closure(lock, '');

/** The devkit workspace's packages that a production install must not hold. */
export function devkitOnlyPackages(lock: Lockfile, workspace = 'devkit'): string[] {
  const production = productionPackages(lock);
  return [...closure(lock, workspace)].filter((p) => !production.has(p)).sort();
}

/** The packages installed under `root/node_modules`, as lockfile paths (nested node_modules included). */
export function installedPackages(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        for (const scoped of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
          const path = `${prefix}node_modules/${entry.name}/${scoped.name}`;
          out.push(path);
          walk(join(dir, entry.name, scoped.name, 'node_modules'), `${path}/`);
        }
        continue;
      }
      const path = `${prefix}node_modules/${entry.name}`;
      out.push(path);
      if (entry.isDirectory()) walk(join(dir, entry.name, 'node_modules'), `${path}/`);
    }
  };
  walk(join(root, 'node_modules'), '');
  return out.sort();
}
