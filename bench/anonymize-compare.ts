/**
 * The anonymizer of another git revision and of the working tree, side by side in one process, on the labelled
 * corpus (test/fixtures/pii):
 *   npx tsx bench/anonymize-compare.ts [--rev 4fffa17] [--rounds 40]
 *
 * On a shared machine two separate bench runs mostly compare the neighbours' load; here both anonymizers run in
 * alternating rounds (the order flips every round), each round a fresh anonymizer over every corpus text, and the
 * figure to read is the median of the per-round ratios. CPU time of this process. It also counts the texts whose
 * output differs between the two (0 when a change is a pure speed-up). The default revision is the last commit
 * before the session-2 throughput work.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as current from '../src/anonymize/index.js';
import { loadDocs, loadSamples } from '../test/fixtures/pii/corpus.js';

const OPTIONS = { phoneRegions: ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'], threshold: 0.5, residualThreshold: 0.8 };
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const rev = arg('--rev', '4fffa17');
const rounds = Number(arg('--rounds', '40'));

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ragwatch-anonymize-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
execSync(`git archive ${rev} src/anonymize src/sample.ts | tar -x -C ${dir}`, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
// Loaded as the project's own sources are: ES modules (without this, tsx would run the copy as CommonJS, slower).
writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
const base = (await import(pathToFileURL(join(dir, 'src/anonymize/index.ts')).href)) as typeof current;

const texts = [...loadDocs().map((d) => d.text), ...loadSamples().flatMap((s) => s.fields.map((f) => f.text))];
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const a = base.createAnonymizer(OPTIONS);
const b = current.createAnonymizer(OPTIONS);
const differing = texts.filter((t) => a.anonymizeText(t).text !== b.anonymizeText(t).text).length;

const pass = (m: typeof current) => {
  const anonymizer = m.createAnonymizer(OPTIONS);
  for (const t of texts) anonymizer.anonymizeText(t);
};
const cpuMs = (f: () => void) => {
  const start = process.cpuUsage();
  f();
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
};
for (let i = 0; i < 10; i++) {
  pass(base);
  pass(current);
}
const baseMs: number[] = [];
const currentMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  const order: Array<[typeof current, number[]]> = [
    [base, baseMs],
    [current, currentMs],
  ];
  if (r % 2 === 1) order.reverse();
  for (const [m, out] of order) out.push(cpuMs(() => [0, 1, 2].forEach(() => pass(m))) / 3);
}
const quantile = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.floor(q * (xs.length - 1))]!;
const ratios = currentMs.map((x, i) => x / baseMs[i]!);
const mbps = (ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(2);

console.log(`corpus: ${texts.length} texts, ${(bytes / 1000).toFixed(1)} kB; ${rounds} alternating rounds of 3 passes each`);
console.log(`revision ${rev.padEnd(12)} ${quantile(baseMs, 0.5).toFixed(2)} ms per pass (median), ${quantile(baseMs, 0).toFixed(2)} best = ${mbps(quantile(baseMs, 0.5))} MB/s median, ${mbps(quantile(baseMs, 0))} best`);
console.log(`working tree          ${quantile(currentMs, 0.5).toFixed(2)} ms per pass (median), ${quantile(currentMs, 0).toFixed(2)} best = ${mbps(quantile(currentMs, 0.5))} MB/s median, ${mbps(quantile(currentMs, 0))} best`);
console.log(`working tree / revision, per round: ${quantile(ratios, 0.5).toFixed(3)} median (${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} interquartile)`);
console.log(`texts whose anonymized output differs: ${differing} of ${texts.length}`);
