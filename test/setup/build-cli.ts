import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
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

/**
 * Transpiles src/ once per test run, file by file as `tsc -p src` lays out dist/ (type checks are
 * `npm run typecheck`'s job), so the tests that start the real CLI run plain JavaScript: about a
 * second less per process than tsx's loader, which transpiled the whole program at every start.
 */
export default async function buildCli(project: TestProject) {
  const root = join(REPO, 'node_modules', '.cache', 'ragwatch-test-cli', randomUUID().slice(0, 8));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(join(REPO, 'src'));
  await build({
    entryPoints: files,
    outdir: join(root, 'dist'),
    outbase: join(REPO, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  // dist/ reads ../package.json (the version), as it does in a real install.
  mkdirSync(root, { recursive: true });
  copyFileSync(join(REPO, 'package.json'), join(root, 'package.json'));
  project.provide('ragwatchCli', join(root, 'dist', 'cli.js'));
  return () => rmSync(root, { recursive: true, force: true });
}
