/**
 * The floors of src/. Each top-level folder, and each file at the top of src/, stands on one floor and imports
 * only the floors below it and, where its floor allows, the others on its own floor; no folder reaches itself
 * through other folders. Type imports count: a reader follows types as much as values. `npm run lint` runs
 * this check (check-floors.ts); docs/architecture.md shows the same table (a test keeps the two equal).
 */
import { importCycles, type ModuleGraph } from './module-graph.js';

export interface Floor {
  name: string;
  /** Folders (`name/`) and files at the top of src/ (`name.ts`). */
  members: readonly string[];
  /** Whether members may import each other (never in a cycle), or never. */
  sameFloor: 'acyclic' | 'never';
  /** What stands there, in a few words (docs/architecture.md). */
  about: string;
}

/** Bottom first. */
export const FLOORS: readonly Floor[] = [
  {
    name: 'ground',
    members: [
      'errors.ts',
      'exit-codes.ts',
      'outcomes.ts',
      'version.ts',
      'sample.ts',
      'quantile.ts',
      'random.ts',
      'internal/',
      'runtime/',
      'config/',
      'stats/',
    ],
    sameFloor: 'acyclic',
    about: 'what every job uses: errors, building blocks, the runtime and its ports, the configuration',
  },
  {
    name: 'clients',
    members: ['langfuse/', 'judge/', 'state/'],
    sameFloor: 'never',
    about: 'one client per dependency: Langfuse, the judge, the state store',
  },
  {
    name: 'domain',
    members: ['anonymize/', 'extract/', 'metrics/', 'scores/', 'judge-calls/', 'progress/'],
    sameFloor: 'acyclic',
    about: 'what the jobs share: anonymizing, reading traces, scoring, score names, judge-call traces, progress',
  },
  {
    name: 'jobs',
    members: ['online/', 'experiment/', 'golden/', 'calibrate/'],
    sameFloor: 'never',
    about: 'the work ragwatch does; a job reaches another only through a port the composition root fills',
  },
  {
    name: 'top',
    members: ['service/', 'commands/', 'doctor/', 'program.ts', 'cli.ts', 'broken-pipe.ts'],
    sameFloor: 'acyclic',
    about: 'the composition roots: the daemon and the commands; nothing below imports them',
  },
];

/** The unit a file of src/ belongs to: its top-level folder (`online/`) or itself at the top (`errors.ts`). */
export function unitOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : `${file.slice(0, slash + 1)}`;
}

/** What a floor may import, in words (docs/architecture.md's table). */
export function mayImport(floor: Floor, floors: readonly Floor[] = FLOORS): string {
  const below = floors.slice(0, floors.indexOf(floor)).map((f) => f.name);
  const own = floor.sameFloor === 'acyclic' ? 'each other without a cycle' : 'never each other';
  return below.length === 0 ? `${own}; packages` : `${[...below].reverse().join(', ')}; ${own}`;
}

/** Every way the graph (read with `withTypes`) breaks the floors, one line each; empty when it keeps them. */
export function floorProblems(graph: ModuleGraph, floors: readonly Floor[] = FLOORS): string[] {
  const floorOf = new Map<string, number>();
  floors.forEach((f, i) => f.members.forEach((m) => floorOf.set(m, i)));
  const problems: string[] = [];
  const unplaced = new Set<string>();
  /** unit → unit → one file-level import that makes the edge (the first found). */
  const edges = new Map<string, Map<string, string>>();
  for (const [file, deps] of graph.imports) {
    const from = unitOf(file);
    if (!floorOf.has(from)) unplaced.add(from);
    for (const dep of deps) {
      const to = unitOf(dep);
      if (to === from || !graph.imports.has(dep)) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file} -> ${dep}`);
      edges.set(from, out);
    }
  }
  for (const unit of [...unplaced].sort()) {
    problems.push(`src/${unit} stands on no floor: give it one in test/helpers/floors.ts and docs/architecture.md`);
  }
  for (const [from, out] of [...edges].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const a = floorOf.get(from);
    if (a === undefined) continue;
    for (const [to, example] of [...out].sort(([x], [y]) => (x < y ? -1 : 1))) {
      const b = floorOf.get(to);
      if (b === undefined) continue;
      const fa = floors[a]!;
      const fb = floors[b]!;
      if (b > a) problems.push(`${from} (${fa.name}) imports ${to} (${fb.name}), a floor above it: ${example}`);
      else if (b === a && fa.sameFloor === 'never')
        problems.push(`${from} imports ${to}, both ${fa.name}, which never import each other: ${example}`);
    }
  }
  // Folder-level cycles: the units as nodes of a graph of their own.
  const unitGraph: ModuleGraph = { root: graph.root, imports: new Map(), packages: new Map() };
  for (const file of graph.imports.keys()) unitGraph.imports.set(unitOf(file), []);
  for (const [from, out] of edges) unitGraph.imports.set(from, [...out.keys()]);
  for (const group of importCycles(unitGraph)) {
    const path = shortestCycle(group, edges);
    const via = path.slice(0, -1).map((u, i) => edges.get(u)!.get(path[i + 1]!)!);
    const rest = group.length > path.length - 1 ? ` (${group.length} folders in the knot: ${group.join(', ')})` : '';
    problems.push(`folders import each other in a cycle: ${path.join(' -> ')}${rest}: ${via.join('; ')}`);
  }
  return problems;
}

/** A shortest cycle through the group's first unit (breadth first), first unit repeated at the end. */
function shortestCycle(group: readonly string[], edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const start = group[0]!;
  const inGroup = new Set(group);
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!;
    for (const v of edges.get(u)?.keys() ?? []) {
      if (!inGroup.has(v)) continue;
      if (v === start) {
        const path = [u];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        return [...path, start];
      }
      if (!parent.has(v)) {
        parent.set(v, u);
        queue.push(v);
      }
    }
  }
  return [...group, start];
}

/** The floors as docs/architecture.md shows them, top floor first (a test keeps the two equal). */
export function floorsTable(floors: readonly Floor[] = FLOORS): string {
  const rows = [...floors].reverse().map((f) => {
    const members = f.members.map((m) => `\`${m}\``).join(', ');
    return `| ${f.name} | ${members} | ${f.about} | ${mayImport(f, floors)} |`;
  });
  return ['| floor | in `src/` | what stands there | may import |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
