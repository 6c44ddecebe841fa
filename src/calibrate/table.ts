/**
 * Agreement tables: every figure per metric, and within a metric per language, per stratum and per language ×
 * stratum. A breakdown is given only where it differs from its parent (a metric with one language has no
 * per-language cells), so a small deployment's report stays a few lines long.
 */
import { agreementFigures, type CellFigures } from './agreement.js';
import { bootstrapProblems, DEFAULT_BOOTSTRAP, derivedSeed, type BootstrapOptions } from './bootstrap.js';
import { assertCuts, DEFAULT_CUTS, type LevelCuts } from './levels.js';
import { checkPairs, type AnnotatedPair, type Exclusion } from './pairs.js';

export interface TableOptions {
  /** Gate threshold per metric (`metrics.thresholds`); every metric in the pairs needs one. */
  thresholds: Readonly<Record<string, number>>;
  /** Level cut points per metric; DEFAULT_CUTS (0.25, 0.75) for a metric not listed. */
  cuts?: Readonly<Record<string, LevelCuts>>;
  /** Resamples, seed and level; each cell resamples with its own seed derived from this one and its key. */
  bootstrap?: Partial<BootstrapOptions>;
  /** Width the "more annotations for" figure aims at; default 0.2 (about ±0.1). */
  targetWidth?: number;
  /** Metrics in display order; others follow in name order. */
  metricOrder?: readonly string[];
}

export interface AgreementCell extends CellFigures {
  metric: string;
  /** Null: every language (or stratum) together. */
  language: string | null;
  stratum: string | null;
  threshold: number;
  cuts: LevelCuts;
  /** The seed this cell's resamples were drawn with. */
  seed: number;
}

export interface AgreementTable {
  cells: AgreementCell[];
  /** Pairs left out of every figure, per metric and reason. */
  excluded: Exclusion[];
  bootstrap: BootstrapOptions;
  targetWidth: number;
}

export const DEFAULT_TARGET_WIDTH = 0.2;

export function agreementTable(input: readonly AnnotatedPair[], options: TableOptions): AgreementTable {
  const bootstrap = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  const targetWidth = options.targetWidth ?? DEFAULT_TARGET_WIDTH;
  const problems = bootstrapProblems(bootstrap).map((p) => `bootstrap.${p}`);
  if (!(targetWidth > 0 && targetWidth <= 2)) problems.push(`targetWidth must be in (0, 2] (got ${targetWidth})`);
  if (problems.length > 0) throw new RangeError(problems.join('; '));

  const { pairs, excluded } = checkPairs(input);
  const byMetric = groupBy(pairs, (p) => p.metric);
  const missing = [...byMetric.keys()].filter((m) => !(options.thresholds[m]! > 0 && options.thresholds[m]! <= 1));
  if (missing.length > 0) throw new RangeError(`no gate threshold in (0, 1] for ${missing.join(', ')}`);

  const cells: AgreementCell[] = [];
  for (const metric of orderMetrics([...byMetric.keys()], options.metricOrder ?? [])) {
    const cuts = options.cuts?.[metric] ?? DEFAULT_CUTS;
    assertCuts(cuts, `cuts.${metric}`);
    const threshold = options.thresholds[metric] as number;
    const cell = (rows: readonly AnnotatedPair[], language: string | null, stratum: string | null): AgreementCell => {
      const seed = derivedSeed(bootstrap.seed, `${metric}\u0000${language ?? '*'}\u0000${stratum ?? '*'}`);
      const figures = agreementFigures(
        rows.map((p) => p.judge),
        rows.map((p) => p.human),
        { threshold, cuts, bootstrap: { ...bootstrap, seed }, targetWidth },
      );
      return { metric, language, stratum, threshold, cuts, seed, ...figures };
    };
    const rows = byMetric.get(metric)!;
    const byLanguage = groupBy(rows, languageOf);
    const byStratum = groupBy(rows, stratumOf);
    cells.push(cell(rows, null, null));
    if (byLanguage.size > 1) for (const [language, sub] of sorted(byLanguage)) cells.push(cell(sub, language, null));
    if (byStratum.size > 1) for (const [stratum, sub] of sorted(byStratum)) cells.push(cell(sub, null, stratum));
    if (byLanguage.size > 1 && byStratum.size > 1) {
      for (const [language, sub] of sorted(byLanguage)) {
        for (const [stratum, subsub] of sorted(groupBy(sub, stratumOf))) cells.push(cell(subsub, language, stratum));
      }
    }
  }
  return { cells, excluded, bootstrap, targetWidth };
}

const languageOf = (p: AnnotatedPair) => p.language || 'unknown';
const stratumOf = (p: AnnotatedPair) => p.stratum || 'unknown';

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function sorted<T>(groups: Map<string, T>): Array<[string, T]> {
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function orderMetrics(metrics: string[], order: readonly string[]): string[] {
  const rank = (m: string) => (order.includes(m) ? order.indexOf(m) : order.length);
  return metrics.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
