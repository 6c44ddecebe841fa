/**
 * Judge calibration figures (src/calibrate), measured on simulations with known truth:
 *
 * 1. Coverage: the share of 200 seeds in which each agreement figure's 95 % bootstrap interval (default 2000
 *    resamples) covers the value a simulated annotator planted (devkit/src/calibrate), by number of annotations,
 *    planted agreement and answer scale; on the unit test's seeds and on held-out seeds with other score shapes.
 * 2. The 1/√n law behind "annotations to halve the width": mean width at 4n over mean width at n.
 * 3. Judge drift: how often "the judge changed" is reported for an unchanged judge with vLLM's temperature-0
 *    non-determinism (false alarms; also at 2× and 3× that non-determinism) and for a judge flipping 5 % or 10 %
 *    of its verdicts (detection), by anchor count, over 300 seeds; and the same at other tolerances, which is
 *    how the default tolerance was chosen (on these `bench/…` seeds; the unit test runs on others).
 *
 * `npm run bench -- calibrate` (about 7 minutes on one core); `npx tsx bench/calibrate.ts --quick` runs 50 seeds
 * instead of 200 and 300.
 */
import { agreementFigures } from '../src/calibrate/agreement.js';
import { DEFAULT_DRIFT_TOLERANCE, judgeDrift, type DriftReport } from '../src/calibrate/drift.js';
import { DEFAULT_CUTS } from '../src/calibrate/levels.js';
import { AGREEMENT_STATISTICS, type AgreementStatistic } from '../src/calibrate/statistics.js';
import { createRng, type Rng } from '@ragwatch/devkit/corpus/random.js';
import { annotate, type AnnotatorOptions } from '@ragwatch/devkit/calibrate/annotator.js';
import { faithfulnessLike, similarityLike, type ScoreDistribution } from '@ragwatch/devkit/calibrate/distribution.js';
import { plantedFigures } from '@ragwatch/devkit/calibrate/planted.js';
import { rescoreAnchors, scaledNondeterminism, simulatedAnchors } from '@ragwatch/devkit/calibrate/rescore.js';
import { storedScores } from '@ragwatch/devkit/calibrate/rescore.js';

const quick = process.argv.includes('--quick');
const COVERAGE_SEEDS = quick ? 50 : 200;
const DRIFT_SEEDS = quick ? 50 : 300;
const SHORT: Record<AgreementStatistic, string> = {
  spearman: 'ρ',
  kendall_tau_b: 'τ-b',
  mae: 'MAE',
  kappa: 'κ',
  weighted_kappa_linear: 'κw lin',
  weighted_kappa_quadratic: 'κw quad',
};
const pct = (k: number, of: number) => `${((100 * k) / of).toFixed(1)}%`;
const pad = (s: string, w: number) => s.padStart(w);

interface CoverageRun {
  distribution: ScoreDistribution;
  scale: AnnotatorOptions['scale'];
  agreement: number;
  n: number;
  seedPrefix: string;
}

function coverage(run: CoverageRun) {
  const planted = plantedFigures(run.distribution, { agreement: run.agreement, scale: run.scale, threshold: 0.85 });
  const covered = Object.fromEntries(AGREEMENT_STATISTICS.map((s) => [s, 0])) as Record<AgreementStatistic, number>;
  const widths = Object.fromEntries(AGREEMENT_STATISTICS.map((s) => [s, 0])) as Record<AgreementStatistic, number>;
  for (let seed = 1; seed <= COVERAGE_SEEDS; seed++) {
    const rng = createRng(`${run.seedPrefix}/judge/${seed}`);
    const judge = Array.from({ length: run.n }, () => run.distribution.draw(rng));
    const independent = (r: Rng) => run.distribution.draw(r);
    const human = annotate(judge, {
      agreement: run.agreement,
      seed: `${run.seedPrefix}/${seed}`,
      scale: run.scale,
      independent,
    });
    const bootstrap = { resamples: 2000, seed, level: 0.95 };
    const cell = agreementFigures(judge, human, { threshold: 0.85, cuts: DEFAULT_CUTS, bootstrap, targetWidth: 0.2 });
    for (const f of cell.figures) {
      if (!f.estimable || !f.interval) continue;
      widths[f.statistic] += f.interval.width / COVERAGE_SEEDS;
      if (f.interval.low <= planted[f.statistic] && planted[f.statistic] <= f.interval.high) covered[f.statistic]++;
    }
  }
  return { planted, covered, widths };
}

function coverageTable(title: string, runs: Array<CoverageRun & { label: string }>) {
  console.log(`\n${title}`);
  const heads = AGREEMENT_STATISTICS.map((s) => pad(SHORT[s], 8)).join('');
  console.log(`${'answers'.padEnd(30)} ${pad('n', 4)} ${pad('a', 4)} ${heads}`);
  for (const run of runs) {
    const t0 = performance.now();
    const r = coverage(run);
    const cells = AGREEMENT_STATISTICS.map((s) => pad(pct(r.covered[s], COVERAGE_SEEDS), 8)).join('');
    const took = `(${((performance.now() - t0) / 1000).toFixed(1)} s)`;
    console.log(`${run.label.padEnd(30)} ${pad(String(run.n), 4)} ${pad(String(run.agreement), 4)} ${cells}   ${took}`);
  }
}

const faith = faithfulnessLike();
console.log(
  `Agreement intervals: share of ${COVERAGE_SEEDS} seeds whose 95 % percentile interval (2000 resamples) covers ` +
    'the planted value\n(faithfulness-like judge scores: claim shares, ~70 % pass 0.85; answers on the three levels ' +
    'as the queue asks,\n or on the 0–1 scale, where the planted κ and ρ equal the agreement exactly). Target: ≥ 90 %.',
);
const main: Array<CoverageRun & { label: string }> = [];
for (const agreement of [0.8, 0.2]) {
  const onTestSeeds = { distribution: faith, agreement, seedPrefix: 'coverage' };
  for (const n of [50, 100, 250]) main.push({ ...onTestSeeds, label: 'levels, faithfulness-like', scale: 'levels', n });
  main.push({ ...onTestSeeds, label: '0–1, faithfulness-like', scale: 'continuous', n: 100 });
}
coverageTable('On the unit test’s seeds (coverage/judge/1…):', main);
const heldOut = { n: 100, seedPrefix: 'heldout' };
const similarity = {
  ...heldOut,
  label: 'levels, similarity-like',
  distribution: similarityLike(),
  scale: 'levels' as const,
};
const failing = {
  ...heldOut,
  label: '0–1, mostly failing',
  distribution: faithfulnessLike(0.1, 0.4),
  scale: 'continuous' as const,
};
coverageTable('Held out (other seeds, other score shapes):', [
  { ...similarity, agreement: 0.8 },
  { ...similarity, agreement: 0.2 },
  { ...failing, agreement: 0.8 },
  { ...failing, agreement: 0.2 },
]);

console.log('\nThe 1/√n law behind "annotations to halve the width" (3n more): mean width at 4n / at n (≈ 0.5)');
console.log(`${'answers'.padEnd(30)} ${pad('n→4n', 8)} ${AGREEMENT_STATISTICS.map((s) => pad(SHORT[s], 8)).join('')}`);
for (const [n, agreement] of [
  [50, 0.8],
  [100, 0.2],
] as const) {
  const at = (n: number) =>
    coverage({ distribution: faith, scale: 'levels', agreement, n, seedPrefix: 'width' }).widths;
  const small = at(n);
  const large = at(4 * n);
  const ratios = AGREEMENT_STATISTICS.map((s) => pad((large[s] / small[s]).toFixed(2), 8)).join('');
  console.log(`${`levels, a = ${agreement}`.padEnd(30)} ${pad(`${n}→${4 * n}`, 8)} ${ratios}`);
}

function driftRun(anchors: number, flipRate: number, scale: number): DriftReport[] {
  const reports: DriftReport[] = [];
  for (let s = 1; s <= DRIFT_SEEDS; s++) {
    const set = simulatedAnchors(anchors, `bench/${s}`);
    reports.push(
      judgeDrift(
        { version: 'v1', scores: storedScores(set) },
        {
          anchorSetVersion: 'v1',
          scores: rescoreAnchors(set, { seed: `bench/${s}`, flipRate, nondeterminism: scaledNondeterminism(scale) }),
        },
        { bootstrap: { seed: s } },
      ),
    );
  }
  return reports;
}

/** Seeds in which some metric (or the one named) would be "changed" at this tolerance. */
const flaggedAt = (reports: DriftReport[], tolerance: number, metric?: string) =>
  reports.filter((r) => r.metrics.some((m) => (!metric || m.metric === metric) && (m.interval?.low ?? 0) > tolerance))
    .length;
const meanChange = (reports: DriftReport[], metric: string) =>
  reports.reduce((s, r) => s + (r.metrics.find((m) => m.metric === metric)?.meanAbsoluteChange ?? 0), 0) /
  reports.length;

const scenarios: Array<[string, number, number]> = [
  ['unchanged, vLLM T=0 non-determinism', 0, 1],
  ['unchanged, 2× that non-determinism', 0, 2],
  ['unchanged, 3× that non-determinism', 0, 3],
  ['5 % of verdicts flipped', 0.05, 1],
  ['10 % of verdicts flipped', 0.1, 1],
];
const tolerances = [0.02, 0.025, 0.03, 0.04, 0.05];
console.log(
  `\nJudge drift: share of ${DRIFT_SEEDS} seeds reported "the judge changed" at the default tolerance ` +
    `${DEFAULT_DRIFT_TOLERANCE}\n(unchanged rows: false alarms; flipped rows: detection; faithfulness and answer ` +
    'relevancy anchors, 2000 resamples)',
);
const driftHead = `${pad('changed', 8)} ${pad('faith.', 8)} ${pad('ans.rel.', 9)} ${pad('mean |Δ| f / ar', 17)}`;
console.log(`${'anchors'.padStart(7)}  ${'judge'.padEnd(38)} ${driftHead}`);
const sweep = new Map<string, DriftReport[]>();
for (const anchors of [50, 100, 200]) {
  for (const [label, flipRate, scale] of scenarios) {
    const reports = driftRun(anchors, flipRate, scale);
    if (anchors === 100) sweep.set(label, reports);
    const mean = `${meanChange(reports, 'faithfulness').toFixed(3)} / ${meanChange(reports, 'answer_relevancy').toFixed(3)}`;
    const rate = (metric?: string) => pct(flaggedAt(reports, DEFAULT_DRIFT_TOLERANCE, metric), DRIFT_SEEDS);
    const rates = `${pad(rate(), 8)} ${pad(rate('faithfulness'), 8)} ${pad(rate('answer_relevancy'), 9)}`;
    console.log(`${String(anchors).padStart(7)}  ${label.padEnd(38)} ${rates} ${pad(mean, 17)}`);
  }
}
console.log('\nTolerance sweep at 100 anchors (share of seeds reported "the judge changed"):');
console.log(`${'judge'.padEnd(38)} ${tolerances.map((t) => pad(String(t), 8)).join('')}`);
for (const [label] of scenarios) {
  const reports = sweep.get(label)!;
  console.log(`${label.padEnd(38)} ${tolerances.map((t) => pad(pct(flaggedAt(reports, t), DRIFT_SEEDS), 8)).join('')}`);
}
