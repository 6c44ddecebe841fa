/**
 * The anonymizer of another git revision and of the working tree, side by side in one process, on the labelled
 * corpus (test/fixtures/pii):
 *   npx tsx bench/anonymize-compare.ts [--rev f392756] [--rounds 40] [--own-defaults]
 *
 * On a shared machine two separate bench runs mostly compare the neighbours' load; here both anonymizers run in
 * alternating rounds (the order flips every round), each round a fresh anonymizer over every corpus text, and the
 * figure to read is the median of the per-round ratios. CPU time of this process. It also counts the texts whose
 * output differs between the two (0 when a change is a pure speed-up). The default revision is the last commit
 * before the session-2 throughput work. Both sides run with the same phone regions (the eight of the original
 * default); --own-defaults gives the working tree its own default configuration (twelve regions).
 */
import * as current from '../src/anonymize/index.js';
import { parseConfig } from '../src/config/load.js';
import { allMetrics } from '../src/metrics/registry.js';
import { loadDocs, loadSamples } from '../test/fixtures/pii/corpus.js';
import { anonymizerAt } from './_revision.js';

/** Today's regions (the default before AR, CO, CL and PE were added), for both sides unless --own-defaults. */
const OPTIONS = {
  phoneRegions: ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'],
  threshold: 0.5,
  residualThreshold: 0.8,
};
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const rev = arg('--rev', 'f392756');
const rounds = Number(arg('--rounds', '40'));
// --own-defaults: the working tree with its own default configuration (more phone regions), the revision with OPTIONS.
const currentOptions = process.argv.includes('--own-defaults') ? parseConfig({}, allMetrics()).anonymize : OPTIONS;
const base = await anonymizerAt(rev);

const texts = [...loadDocs().map((d) => d.text), ...loadSamples().flatMap((s) => s.fields.map((f) => f.text))];
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const a = base.createAnonymizer(OPTIONS);
const b = current.createAnonymizer(currentOptions);
const differing = texts.filter((t) => a.anonymizeText(t).text !== b.anonymizeText(t).text).length;

const pass = (m: typeof current) => {
  const anonymizer = m.createAnonymizer(m === current ? currentOptions : OPTIONS);
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

console.log(
  `corpus: ${texts.length} texts, ${(bytes / 1000).toFixed(1)} kB; ${rounds} alternating rounds of 3 passes each`,
);
console.log(
  `revision ${rev.padEnd(12)} ${quantile(baseMs, 0.5).toFixed(2)} ms per pass (median), ${quantile(baseMs, 0).toFixed(2)} best = ${mbps(quantile(baseMs, 0.5))} MB/s median, ${mbps(quantile(baseMs, 0))} best`,
);
console.log(
  `working tree          ${quantile(currentMs, 0.5).toFixed(2)} ms per pass (median), ${quantile(currentMs, 0).toFixed(2)} best = ${mbps(quantile(currentMs, 0.5))} MB/s median, ${mbps(quantile(currentMs, 0))} best`,
);
console.log(
  `working tree / revision, per round: ${quantile(ratios, 0.5).toFixed(3)} median (${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} interquartile)`,
);
console.log(`texts whose anonymized output differs: ${differing} of ${texts.length}`);
