import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floorProblems, floorsTable } from '../../helpers/floors.js';
import { readModuleGraph } from '../../helpers/module-graph.js';
import { REPO_ROOT } from '../../helpers/run-cli.js';

/** `npm run lint`'s floor check (test/helpers/check-floors.ts) as it runs, on a tree given as path → text. */
function lintFloors(tree: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-floors-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, [join(REPO_ROOT, 'test/helpers/check-floors.ts'), dir], { encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr, problems: floorProblems(readModuleGraph(dir, { withTypes: true })) };
}
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const clean = {
  'errors.ts': 'export class E extends Error {}\n',
  'config/index.ts': "import { E } from '../errors.js';\nexport const c = E;\n",
  'langfuse/index.ts': "import { c } from '../config/index.js';\nexport const l = c;\n",
  'extract/index.ts': "import { l } from '../langfuse/index.js';\nexport const x = l;\n",
  'anonymize/index.ts': "import { c } from '../config/index.js';\nexport const a = c;\n",
  'online/index.ts': "import { x } from '../extract/index.js';\nexport const o = x;\n",
  'experiment/index.ts': "import { a } from '../anonymize/index.js';\nexport const e = a;\n",
  'service/index.ts':
    "import { o } from '../online/index.js';\nimport { e } from '../experiment/index.js';\nexport const s = [o, e];\n",
};

describe('the floor check of npm run lint', () => {
  it('passes a tree that keeps its floors', () => {
    const { code, problems } = lintFloors(clean);
    expect(problems).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails on a folder-level cycle made of type imports only, between folders that may import each other', () => {
    const { code, stderr, problems } = lintFloors({
      ...clean,
      // Both domain folders: either may import the other, but not both ways, not even for a type.
      'extract/types.ts': "import type { A } from '../anonymize/types.js';\nexport type X = A | 1;\n",
      'anonymize/types.ts': "import type { X } from '../extract/types.js';\nexport type A = X | 2;\n",
    });
    expect(problems).toEqual([
      'folders import each other in a cycle: anonymize/ -> extract/ -> anonymize/: ' +
        'anonymize/types.ts -> extract/types.ts; extract/types.ts -> anonymize/types.ts',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'error floors: folders import each other in a cycle: anonymize/ -> extract/ -> anonymize/',
    );
  });

  it('fails on an import of a floor above, on two jobs importing each other, and on a folder with no floor', () => {
    const { code, problems } = lintFloors({
      ...clean,
      'langfuse/logger.ts': "import type { s } from '../service/index.js';\nexport type L = typeof s;\n",
      'online/uses-experiment.ts': "import type { e } from '../experiment/index.js';\nexport type U = typeof e;\n",
      'newfolder/n.ts': "import { c } from '../config/index.js';\nexport const n = c;\n",
    });
    expect(problems).toEqual([
      'src/newfolder/ stands on no floor: give it one in test/helpers/floors.ts and docs/architecture.md',
      'langfuse/ (clients) imports service/ (top), a floor above it: langfuse/logger.ts -> service/index.ts',
      'online/ imports experiment/, both jobs, which never import each other: ' +
        'online/uses-experiment.ts -> experiment/index.ts',
      'folders import each other in a cycle: extract/ -> langfuse/ -> service/ -> online/ -> extract/: ' +
        'extract/index.ts -> langfuse/index.ts; langfuse/logger.ts -> service/index.ts; ' +
        'service/index.ts -> online/index.ts; online/index.ts -> extract/index.ts',
    ]);
    expect(code).toBe(1);
  });
});

describe('src/', () => {
  it('keeps its floors, type imports included', () => {
    expect(floorProblems(readModuleGraph(join(REPO_ROOT, 'src'), { withTypes: true }))).toEqual([]);
  });

  it('is drawn in docs/architecture.md with the floors the check holds it to', () => {
    expect(readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8')).toContain(floorsTable());
  });
});
