import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { REPO } from '../tiers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI transpiled once for this run (`dist/cli.js` of a throwaway build), or absent. */
    ragwatchCli?: string;
  }
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Transpiles one package's `src/` into `<to>/dist`, file by file as tsc lays it out, and copies its package.json. */
async function transpile(from: string, to: string): Promise<void> {
  await build({
    entryPoints: tsFiles(join(from, 'src')),
    outdir: join(to, 'dist'),
    outbase: join(from, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  // dist/ reads ../package.json (the version), and the package's exports point into dist/.
  copyFileSync(join(from, 'package.json'), join(to, 'package.json'));
}

/**
 * Transpiles src/ and the devkit once per test run (type checks are `npm run typecheck`'s job), so the
 * tests that start the real CLI run plain JavaScript: about a second less per process than tsx's loader,
 * which transpiled the whole program at every start. The throwaway build is laid out as an install is:
 * ragwatch's dist/ with the devkit in its node_modules (what `ragwatch demo` loads), and a `ragwatch` link
 * back to it, so the devkit and the CLI share one copy of every ragwatch module.
 */
export default async function buildCli(project: TestProject) {
  const root = join(REPO, 'node_modules', '.cache', 'ragwatch-test-cli', randomUUID().slice(0, 8));
  const devkit = join(root, 'node_modules', '@ragwatch', 'devkit');
  mkdirSync(devkit, { recursive: true });
  await Promise.all([transpile(REPO, root), transpile(join(REPO, 'devkit'), devkit)]);
  symlinkSync('..', join(root, 'node_modules', 'ragwatch'));
  project.provide('ragwatchCli', join(root, 'dist', 'cli.js'));
  return () => rmSync(root, { recursive: true, force: true });
}
