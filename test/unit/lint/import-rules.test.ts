import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/run-cli.js';

/** `npm run lint`'s import rules (.ci/dependency-cruiser.cjs) on a small tree that breaks each of them once. */
const dir = mkdtempSync(join(tmpdir(), 'ragwatch-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
  }),
  'src/a/index.ts': "export { x } from './x.js';\n",
  'src/a/x.ts': "import { y } from '../b/y.js';\nimport { b } from '../b/index.js';\nexport const x = y + b;\n",
  'src/b/index.ts': 'export const b = 1;\n',
  'src/b/y.ts': 'export const y = 2;\n',
  'src/b/part/index.ts': 'export const part = 3;\n',
  'src/c/p.ts': "import { q } from './q.js';\nexport const p = () => q;\n",
  'src/c/q.ts': "import { p } from './p.js';\nexport const q = () => p;\n",
  'src/c/r.ts': "import type { S } from './s.js';\nexport type R = S | 1;\n",
  'src/c/s.ts': "import type { R } from './r.js';\nexport type S = R | 2;\n",
  'src/d/uses-devkit.ts': "import { thing } from '../../devkit/src/thing.js';\nexport const d = thing;\n",
  'src/config/c.ts':
    "import { registry } from '../metrics/registry.js';\nimport { other } from '../metrics/other.js';\nexport const c = [registry, other];\n",
  'src/metrics/registry.ts': 'export const registry = 1;\n',
  'src/metrics/other.ts': 'export const other = 1;\n',
  'src/metrics/m.ts':
    "import { t } from '../judge/types.js';\nimport { k } from '../judge/client.js';\nexport const m = [t, k];\n",
  'src/judge/types.ts': 'export const t = 1;\n',
  'src/judge/client.ts': 'export const k = 1;\n',
  'src/e/lazy.ts':
    "export const ok = () => import('../b/part/index.js');\nexport const bad = () => import('../b/y.js');\n",
  'src/main.ts': "import { x } from './a/x.js';\nimport { b } from './b/index.js';\nexport const main = x + b;\n",
  'devkit/src/thing.ts': 'export const thing = 4;\n',
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

describe('the import rules', () => {
  it('flag a deep import across folders, production code importing the devkit, and run-time cycles only', () => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const bin = join(REPO_ROOT, 'node_modules', '.bin', 'depcruise');
    const config = join(REPO_ROOT, '.ci', 'dependency-cruiser.cjs');
    const run = spawnSync(bin, ['--config', config, '--output-type', 'json', 'src', 'devkit/src'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
    const found = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual([
      'folder-through-index-from-root: src/main.ts -> src/a/x.ts',
      'folder-through-index-metrics: src/metrics/m.ts -> src/judge/client.ts',
      'folder-through-index: src/a/x.ts -> src/b/y.ts',
      // config/ has no exception any more: it imports nothing of metrics/ (the composition root joins them).
      'folder-through-index: src/config/c.ts -> src/metrics/other.ts',
      'folder-through-index: src/config/c.ts -> src/metrics/registry.ts',
      'lazy-part-through-index: src/e/lazy.ts -> src/b/y.ts',
      'no-devkit-in-production: src/d/uses-devkit.ts -> devkit/src/thing.ts',
      'no-import-cycles: src/c/p.ts -> src/c/q.ts',
    ]);
    // As `npm run lint` runs it (the default reporter): a violation fails the command.
    const lint = spawnSync(bin, ['--config', config, 'src/a'], { cwd: dir, encoding: 'utf8' });
    expect(lint.status).not.toBe(0);
    expect(lint.stdout).toContain('error folder-through-index: src/a/x.ts → src/b/y.ts');
  });
});
