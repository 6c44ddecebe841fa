/**
 * The run-time import graph of a TypeScript tree, read with the TypeScript parser: relative `import` and
 * `export … from` declarations, without `import type` / `export type` (the tsconfig's verbatimModuleSyntax
 * erases those, so they cannot make a cycle at run time or pull a module in) unless `withTypes` asks for them too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ModuleGraph {
  root: string;
  /** File (relative to root) → the files it imports at run time (relative to root too). */
  imports: Map<string, string[]>;
  /** File → bare specifiers it imports at run time (`zod`, `node:crypto`). */
  packages: Map<string, string[]>;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && allTypeOnly(clause.elements);
  }
  const clause = node.importClause;
  if (clause === undefined) return false; // `import './side-effect.js'`
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named) && allTypeOnly(named.elements);
}

function allTypeOnly(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

function resolveRelative(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c)) ?? base;
}

/** Every `.ts` file under `root` and what it imports at run time (with `withTypes`, type-only imports as well). */
export function readModuleGraph(root: string, options: { withTypes?: boolean } = {}): ModuleGraph {
  const imports = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const file of tsFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const local: string[] = [];
    const external: string[] = [];
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      const specifier = node.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
      if (!options.withTypes && isTypeOnly(node)) continue;
      if (specifier.text.startsWith('.')) local.push(relative(root, resolveRelative(file, specifier.text)));
      else external.push(specifier.text);
    }
    imports.set(relative(root, file), local);
    packages.set(relative(root, file), external);
  }
  return { root, imports, packages };
}

/** Groups of files that import each other at run time, directly or through others (Tarjan's SCCs of size > 1). */
export function importCycles(graph: ModuleGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.imports.get(v) ?? []) {
      if (!graph.imports.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.imports.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** The files a module loads at run time, itself included, and the packages they load. */
export function runtimeClosure(graph: ModuleGraph, start: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (f: string): void => {
    if (files.has(f)) return;
    files.add(f);
    for (const p of graph.packages.get(f) ?? []) packages.add(p);
    for (const d of graph.imports.get(f) ?? []) walk(d);
  };
  walk(start);
  return { files: [...files].sort(), packages: [...packages].sort() };
}
