/**
 * `npm run lint`'s floor check: `tsx test/helpers/check-floors.ts [DIR]` (default src/) reads DIR's import graph,
 * type imports included, and exits 1 with one line per problem when it breaks the floors (floors.ts).
 */
import { relative, resolve } from 'node:path';
import { floorProblems } from './floors.js';
import { readModuleGraph } from './module-graph.js';

const root = resolve(process.argv[2] ?? 'src');
const problems = floorProblems(readModuleGraph(root, { withTypes: true }));
if (problems.length > 0) {
  for (const p of problems) console.error(`error floors: ${p}`);
  console.error(
    `\n✘ ${problems.length} floor problem${problems.length === 1 ? '' : 's'} (docs/architecture.md, "Floors")`,
  );
  process.exit(1);
}
console.log(`✔ the folders of ${relative(process.cwd(), root) || root} keep their floors, type imports included`);
