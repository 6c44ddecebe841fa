import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  closure,
  devkitOnlyPackages,
  type Lockfile,
  productionPackages,
  resolveFrom,
} from '../../helpers/production-tree.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lockfile;
const rootPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

describe('the production tree read from package-lock.json', () => {
  it('holds ragwatch’s dependencies and what they need, and no dev or devkit package', () => {
    const production = productionPackages(lock);
    for (const name of Object.keys(rootPackage.dependencies))
      expect(production.has(`node_modules/${name}`), name).toBe(true);
    expect(production.has('node_modules/pino-std-serializers')).toBe(true); // pino's own dependency
    for (const name of [
      'vitest',
      'typescript',
      'js-tiktoken',
      '@langchain/core',
      'ajv',
      '@ragwatch/devkit',
      'ragwatch',
    ]) {
      expect(production.has(`node_modules/${name}`), name).toBe(false);
    }
  });

  it('names the devkit’s packages a production install must leave out, and not those ragwatch shares', () => {
    const devkitOnly = devkitOnlyPackages(lock);
    expect(devkitOnly).toEqual(
      expect.arrayContaining(['node_modules/js-tiktoken', 'node_modules/@langchain/core', 'node_modules/ajv']),
    );
    expect(devkitOnly).not.toContain('node_modules/zod');
    expect(devkitOnly).not.toContain('node_modules/openai');
  });

  it('resolves a dependency to the nearest node_modules up from the package that needs it', () => {
    const nested: Lockfile = {
      packages: {
        '': { dependencies: { a: '1', b: '1' } },
        w: { dependencies: { c: '1' } },
        'node_modules/a': {
          dependencies: { b: '2', d: '1' },
          peerDependencies: { p: '1', q: '1' },
          peerDependenciesMeta: { q: { optional: true } },
        },
        'node_modules/a/node_modules/b': {},
        'node_modules/b': {},
        'node_modules/c': {},
        'node_modules/d': {},
        'node_modules/p': {},
        'node_modules/q': {},
        'node_modules/w': { link: true },
      },
    };
    expect(resolveFrom(nested, 'node_modules/a', 'b')).toBe('node_modules/a/node_modules/b');
    expect(resolveFrom(nested, 'node_modules/a/node_modules/b', 'd')).toBe('node_modules/d');
    expect(resolveFrom(nested, 'w', 'c')).toBe('node_modules/c');
    expect(resolveFrom(nested, '', 'missing')).toBeUndefined();
    expect([...closure(nested, '')].sort()).toEqual([
      'node_modules/a',
      'node_modules/a/node_modules/b',
      'node_modules/b',
      'node_modules/d',
      'node_modules/p',
    ]);
  });
});
