import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, readModuleGraph, runtimeClosure } from '../helpers/module-graph.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

const src = readModuleGraph(join(REPO_ROOT, 'src'));

describe('the module graph of src/', () => {
  it('has no run-time import cycle', () => {
    expect(importCycles(src)).toEqual([]);
  });

  it('config and metrics import nothing of each other; the registry nothing beyond metrics/ and the judge’s error types', () => {
    const registry = runtimeClosure(src, 'metrics/registry.ts');
    // errors.ts: the one error hierarchy the judge's error types derive from (a leaf: it imports nothing).
    const outside = registry.files.filter(
      (f) => !f.startsWith('metrics/') && f !== 'judge/types.ts' && f !== 'errors.ts',
    );
    expect(outside).toEqual([]);
    // Scoring and batches load the judge clients: not part of what the registry loads.
    expect(registry.files.filter((f) => f.startsWith('metrics/batch/') || f === 'metrics/score-sample.ts')).toEqual([]);
    expect(registry.packages).toEqual(['node:crypto', 'zod']);
    // Type imports count: the composition root hands config the registry's facts (commands/context.ts).
    const all = readModuleGraph(join(REPO_ROOT, 'src'), { withTypes: true });
    const config = runtimeClosure(all, 'config/index.ts');
    expect(config.files.filter((f) => !f.startsWith('config/') && f !== 'errors.ts')).toEqual([]);
    const metrics = [...all.imports].flatMap(([f, deps]) => (f.startsWith('metrics/') ? deps : []));
    expect(metrics.filter((d) => d.startsWith('config/'))).toEqual([]);
  });
});

describe('the two jobs', () => {
  // Type-only imports count too: what both jobs share lives in a folder of its own (scores/, anonymize/, ...).
  const all = readModuleGraph(join(REPO_ROOT, 'src'), { withTypes: true });
  const crossing = (from: string, to: string) =>
    [...all.imports].flatMap(([file, deps]) =>
      file.startsWith(from) ? deps.filter((d) => d.startsWith(to)).map((d) => `${file} -> ${d}`) : [],
    );

  it('online/ and experiment/ never import each other, not even a type', () => {
    expect(crossing('online/', 'experiment/')).toEqual([]);
    expect(crossing('experiment/', 'online/')).toEqual([]);
  });
});

describe('the module graph reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ragwatch-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a cycle through run-time imports and none through type-only ones', () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'b.ts'), "import { c } from './c.js';\nexport const b = c;\n");
    writeFileSync(join(dir, 'c.ts'), "export { a } from './a.js';\nexport const c = 1;\n");
    const typeOnly =
      "import type { a } from './a.js';\nimport { type b } from './b.js';\nexport type D = typeof a | b;\n";
    writeFileSync(join(dir, 'd.ts'), typeOnly);
    writeFileSync(join(dir, 'e.ts'), "import type { D } from './d.js';\nexport type { D };\nexport const e = 'zod';\n");
    expect(importCycles(readModuleGraph(dir))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    writeFileSync(join(dir, 'c.ts'), "export type { a } from './a.js';\nexport const c = 1;\n");
    expect(importCycles(readModuleGraph(dir))).toEqual([]);
    expect(runtimeClosure(readModuleGraph(dir), 'd.ts').files).toEqual(['d.ts']);
    expect(readModuleGraph(dir, { withTypes: true }).imports.get('d.ts')).toEqual(['a.ts', 'b.ts']);
  });
});
