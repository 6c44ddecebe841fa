/**
 * What a simulated annotator planted: the population value of every agreement figure under the annotator's
 * model (annotator.ts), computed exactly from the joint distribution of (judge score, human score) — no
 * sampling — so a test can ask whether the estimators' intervals cover it.
 *
 *   P(judge = v, human = h) = p(v) · (a·[h = s(v)] + (1 − a)·q(h)),   q(h) = P(s(J') = h), J' ~ p
 *
 * with s the person's scale (identity, or the level of the score). Population forms of the figures: κ from
 * the joint table of categories; Spearman's ρ as Pearson's correlation of the mid-distribution functions
 * F*(x) = P(X < x) + P(X = x)/2 (what average ranks / n converge to); Kendall's τ-b as
 * (P(concordant) − P(discordant)) / √((1 − P(tie in judge))(1 − P(tie in human))).
 */
import { DEFAULT_ANNOTATOR_CUTS, onScale, type AnnotatorCuts, type AnnotatorOptions } from './annotator.js';
import type { ScoreDistribution } from './distribution.js';

export interface PlantedFigures {
  spearman: number;
  kendall_tau_b: number;
  mae: number;
  kappa: number;
  weighted_kappa_linear: number;
  weighted_kappa_quadratic: number;
}

export interface PlantedOptions {
  agreement: number;
  scale: AnnotatorOptions['scale'];
  /** Gate threshold for pass/fail κ. */
  threshold: number;
  cuts?: AnnotatorCuts;
}

interface Cell {
  judge: number;
  human: number;
  p: number;
}

export function plantedFigures(judge: ScoreDistribution, options: PlantedOptions): PlantedFigures {
  const cuts = options.cuts ?? DEFAULT_ANNOTATOR_CUTS;
  const a = options.agreement;
  const humanMass = new Map<number, number>();
  for (const m of judge.masses) {
    const h = onScale(m.value, options.scale, cuts);
    humanMass.set(h, (humanMass.get(h) ?? 0) + m.p);
  }
  const cells: Cell[] = [];
  for (const m of judge.masses) {
    for (const [h, q] of humanMass) {
      const p = m.p * (a * (h === onScale(m.value, options.scale, cuts) ? 1 : 0) + (1 - a) * q);
      if (p > 0) cells.push({ judge: m.value, human: h, p });
    }
  }
  const level = (s: number) => (s >= cuts.supported ? 2 : s >= cuts.partly ? 1 : 0);
  const pass = (s: number) => (s >= options.threshold ? 1 : 0);
  return {
    spearman: gradeCorrelation(cells),
    kendall_tau_b: tauB(cells),
    mae: cells.reduce((s, c) => s + c.p * Math.abs(c.judge - c.human), 0),
    kappa: kappa(cells, pass, 2, () => 1),
    weighted_kappa_linear: kappa(cells, level, 3, (i, j) => Math.abs(i - j) / 2),
    weighted_kappa_quadratic: kappa(cells, level, 3, (i, j) => ((i - j) / 2) ** 2),
  };
}

type Weight = (i: number, j: number) => number;

function kappa(cells: Cell[], code: (s: number) => number, k: number, weight: Weight): number {
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const c of cells) table[code(c.judge)]![code(c.human)]! += c.p;
  const rows = table.map((r) => r.reduce((s, x) => s + x, 0));
  const cols = table[0]!.map((_, j) => table.reduce((s, r) => s + r[j]!, 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      observed += weight(i, j) * table[i]![j]!;
      expected += weight(i, j) * rows[i]! * cols[j]!;
    }
  }
  return 1 - observed / expected;
}

/** F*(x) = P(X < x) + P(X = x)/2 of a marginal. */
function midDistribution(marginal: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  let below = 0;
  for (const [v, p] of [...marginal].sort(([a], [b]) => a - b)) {
    out.set(v, below + p / 2);
    below += p;
  }
  return out;
}

function marginals(cells: Cell[]) {
  const judge = new Map<number, number>();
  const human = new Map<number, number>();
  for (const c of cells) {
    judge.set(c.judge, (judge.get(c.judge) ?? 0) + c.p);
    human.set(c.human, (human.get(c.human) ?? 0) + c.p);
  }
  return { judge, human };
}

function gradeCorrelation(cells: Cell[]): number {
  const m = marginals(cells);
  const fj = midDistribution(m.judge);
  const fh = midDistribution(m.human);
  const mean = (f: Map<number, number>, marginal: Map<number, number>) =>
    [...marginal].reduce((s, [v, p]) => s + p * f.get(v)!, 0);
  const mj = mean(fj, m.judge);
  const mh = mean(fh, m.human);
  const variance = (f: Map<number, number>, marginal: Map<number, number>, mu: number) =>
    [...marginal].reduce((s, [v, p]) => s + p * (f.get(v)! - mu) ** 2, 0);
  const cov = cells.reduce((s, c) => s + c.p * (fj.get(c.judge)! - mj) * (fh.get(c.human)! - mh), 0);
  return cov / Math.sqrt(variance(fj, m.judge, mj) * variance(fh, m.human, mh));
}

function tauB(cells: Cell[]): number {
  let signed = 0;
  for (const c of cells) {
    for (const d of cells) signed += c.p * d.p * Math.sign(d.judge - c.judge) * Math.sign(d.human - c.human);
  }
  const m = marginals(cells);
  const untied = (marginal: Map<number, number>) => 1 - [...marginal.values()].reduce((s, p) => s + p * p, 0);
  return signed / Math.sqrt(untied(m.judge) * untied(m.human));
}
