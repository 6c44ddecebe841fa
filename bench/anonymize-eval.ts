/**
 * The anonymizer on the independent evaluation corpus (test/fixtures/anonymize-eval): both splits side by side,
 * per type and per class, with the targets of the anonymizer's generalisation issue next to them.
 *   npx tsx bench/anonymize-eval.ts [--details]
 * `--details` lists what went wrong on `dev` (never on a held-out split: tune on dev only, report on `heldout` and
 * on `heldout2`, the round-4 split written before that round's recognizer changes).
 * The output is Markdown; BASELINE.md in the corpus directory is this bench run on the code before any tuning.
 */
import { execSync } from 'node:child_process';
import { parseConfig } from '../src/config/load.js';
import { allMetrics } from '../src/metrics/registry.js';
import { SPLITS, type Split } from '../test/fixtures/anonymize-eval/corpus.js';
import {
  TARGETS,
  evaluateSplit,
  headline,
  meetsTarget,
  rate,
  type Count,
  type Evaluation,
} from '../test/fixtures/anonymize-eval/evaluate.js';

const details = process.argv.includes('--details');
const pct = (c: Count) => (c.total === 0 ? '—' : `${(100 * rate(c)).toFixed(1)} %`);
const frac = (c: Count) => `${c.hit}/${c.total}`;
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: Array<Array<string | number>>) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

const git = (args: string) =>
  execSync(`git ${args}`, { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
let commit = 'unknown';
try {
  commit = `${git('rev-parse --short HEAD')} (src/anonymize last changed in ${git('log -1 --format=%h -- src/anonymize')})`;
  if (git('status --porcelain -- src') !== '') commit += ' + uncommitted src/ changes';
} catch {
  // not a git checkout
}
const options = parseConfig({}, allMetrics()).anonymize;
const started = process.cpuUsage();
const runs = Object.fromEntries(SPLITS.map((s) => [s, evaluateSplit(s)])) as Record<Split, Evaluation>;
const cpu = process.cpuUsage(started);

console.log(`# Anonymizer on the independent evaluation corpus\n`);
console.log(
  `${new Date().toISOString().slice(0, 10)} · commit ${commit} · default options (phoneRegions ${options.phoneRegions.join(',')}, threshold ${options.threshold})`,
);
console.log(`${(cpu.user / 1e6).toFixed(1)} s CPU for both splits\n`);
console.log(
  table(
    [
      'split',
      'records',
      'entities',
      'validated values',
      'must-keep',
      'look-alikes',
      'value groups',
      'unaligned fields',
      'rejected lines',
    ],
    SPLITS.map((s) => {
      const e = runs[s];
      const h = headline(e);
      const entities = e.types.reduce((n, t) => n + t.gold, 0);
      return [
        s,
        e.records,
        entities,
        h.validatedLeaks.total,
        h.keepDamage.total,
        h.lookalikesKept.total,
        h.consistency.total,
        e.unaligned,
        e.rejected,
      ];
    }),
  ),
);

console.log('\n## Targets\n');
const heads = Object.fromEntries(SPLITS.map((s) => [s, headline(runs[s])]));
console.log(
  table(
    ['figure', 'target', ...SPLITS.map((s) => s), 'met on heldout', 'met on heldout2'],
    (Object.keys(TARGETS) as Array<keyof typeof TARGETS>).map((k) => {
      const t = TARGETS[k];
      const target = 'max' in t ? `≤ ${(100 * t.max).toFixed(1)} %` : `≥ ${(100 * t.min).toFixed(0)} %`;
      return [
        t.label,
        target,
        ...SPLITS.map((s) => `${pct(heads[s]![k])} (${frac(heads[s]![k])})`),
        meetsTarget(k, heads.heldout![k]) ? 'yes' : 'no',
        heads.heldout2![k].total === 0 ? '—' : meetsTarget(k, heads.heldout2![k]) ? 'yes' : 'no',
      ];
    }),
  ),
);
console.log(
  `\nConsistent records (every value group one placeholder): ${SPLITS.map((s) => `${s} ${pct(runs[s].consistentRecords)} (${frac(runs[s].consistentRecords)})`).join(', ')}`,
);
console.log(
  `Multi-field lines (a value in two or more fields) with one placeholder per value: ${SPLITS.map((s) => `${s} ${pct(runs[s].multiFieldRecords)} (${frac(runs[s].multiFieldRecords)})`).join(', ')}`,
);
console.log(`Placeholders shared by two different values: ${SPLITS.map((s) => `${s} ${runs[s].merged}`).join(', ')}`);

console.log('\n## Per type\n');
console.log('recall: every letter and digit under a placeholder of the right type; any type: under any placeholder.\n');
console.log(
  table(
    ['type', ...SPLITS.flatMap((s) => [`${s} n`, 'recall', 'any type', 'precision', 'leaked'])],
    runs.dev.types.map((t, i) => [
      t.type,
      ...SPLITS.flatMap((s) => {
        const x = runs[s].types[i]!;
        const leaked = ['PERSON', 'ADDRESS', 'DATE_OF_BIRTH', 'SECRET', 'ID'].includes(x.type) ? '—' : String(x.leaked);
        return [
          x.gold,
          pct({ total: x.gold, hit: x.typed }),
          pct({ total: x.gold, hit: x.redacted }),
          pct({ total: x.predicted, hit: x.predictedCorrect }),
          leaked,
        ];
      }),
    ]),
  ),
);

const byKey = (pick: (e: Evaluation) => Map<string, Count>, title: string, note: string) => {
  const keys = [...new Set(SPLITS.flatMap((s) => [...pick(runs[s]).keys()]))].sort();
  console.log(`\n## ${title}\n\n${note}\n`);
  console.log(
    table(
      ['', ...SPLITS.flatMap((s) => [`${s} n`, 'rate'])],
      keys.map((k) => [
        k,
        ...SPLITS.flatMap((s) => {
          const c = pick(runs[s]).get(k) ?? { total: 0, hit: 0 };
          return [c.total, pct(c)];
        }),
      ]),
    ),
  );
};
byKey(
  (e) => e.classes,
  'Recall per class',
  'A label counts under each class it exercises (a disguised phone counts as phone.* and unicode.*).',
);
byKey(
  (e) => e.groups,
  'Consistency per type',
  'Value groups (the same value in two fields or two written forms) that got exactly one placeholder.',
);
byKey(
  (e) => e.keep,
  'Must-keep damaged',
  'Share of must-keep strings with a placeholder over any of their letters or digits.',
);
byKey((e) => e.lookalikes, 'Look-alikes kept', 'Share of look-alikes left untouched.');

if (details) {
  console.log('\n## dev: what went wrong\n');
  const groups = new Map<string, string[]>();
  for (const m of runs.dev.misses) {
    const k = `${m.how} ${m.type}${m.classes.length > 0 ? ` (${m.classes.join(', ')})` : ''}`;
    groups.set(k, [
      ...(groups.get(k) ?? []),
      `${m.id} ${m.field}: ${JSON.stringify(m.text)}${m.got ? ` -> ${m.got}` : ''}`,
    ]);
  }
  for (const [k, items] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`- ${items.length} × ${k}`);
    for (const it of items.slice(0, 5)) console.log(`    ${it}`);
  }
}
