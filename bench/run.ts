/**
 * `npm run bench [-- NAME ...]`: runs the benchmarks one after another, each in its own process so one's
 * memory and JIT state don't colour the next. Without names it runs all of them. Benchmarks print figures;
 * they are not tests and stay out of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.includes('-samples') && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (available: ${available.join(', ')})`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n=== bench/${name} ===`);
  // The sources, not a build: the devkit's stand-ins resolve to devkit/src under this condition, as in the tests.
  const res = spawnSync(process.execPath, ['--conditions=ragwatch-source', '--import', 'tsx', `${dir}${name}.ts`], {
    stdio: 'inherit',
  });
  if (res.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
