/**
 * The anonymizer of another git revision, loaded next to the working tree's: `git archive` of src/anonymize (and
 * the sample type it imports) into a temporary directory, imported as ES modules. Shared by the anonymizer benches.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as current from '../src/anonymize/index.js';

export type AnonymizerModule = typeof current;

export async function anonymizerAt(rev: string): Promise<AnonymizerModule> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-anonymize-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  execSync(`git archive ${rev} src/anonymize src/sample.ts | tar -x -C ${dir}`, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // Loaded as the project's own sources are: ES modules (without this, tsx would run the copy as CommonJS, slower).
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  return (await import(pathToFileURL(join(dir, 'src/anonymize/index.ts')).href)) as AnonymizerModule;
}
