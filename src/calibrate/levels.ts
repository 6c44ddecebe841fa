/**
 * The three-level scale people annotate on (unsupported / partly / supported, read as 0, 0.5 and 1) and the
 * binning of a continuous judge score onto it.
 *
 * Default cut points are the midpoints between the levels' readings, 0.25 and 0.75: a score goes to the level
 * whose reading is nearest (ties go up: 0.25 is partly, 0.75 is supported). That is the binning consistent with
 * reading the levels as 0, 0.5 and 1 — the mean absolute error compares the same numbers — and it needs no
 * assumption about how a metric's scores spread. A team that reads "supported" strictly (every claim supported)
 * sets the metric's `supported` cut to 1.
 */
export const LEVELS = ['unsupported', 'partly', 'supported'] as const;
export type Level = (typeof LEVELS)[number];

/** The reading of each level on the 0–1 score scale. */
export const LEVEL_VALUE: Readonly<Record<Level, number>> = { unsupported: 0, partly: 0.5, supported: 1 };

export interface LevelCuts {
  /** Scores at or above this are at least `partly`; in (0, 0.5]. */
  partly: number;
  /** Scores at or above this are `supported`; in (0.5, 1]. */
  supported: number;
}

export const DEFAULT_CUTS: Readonly<LevelCuts> = { partly: 0.25, supported: 0.75 };

/**
 * Problems with a set of cuts, one line each (empty when valid). The bounds keep 0, 0.5 and 1 on their own
 * levels, so a human's 3-level answer bins to itself.
 */
export function cutProblems(cuts: LevelCuts, name = 'cuts'): string[] {
  const problems: string[] = [];
  if (!(cuts.partly > 0 && cuts.partly <= 0.5)) {
    problems.push(`${name}.partly must be in (0, 0.5] (got ${cuts.partly})`);
  }
  if (!(cuts.supported > 0.5 && cuts.supported <= 1)) {
    problems.push(`${name}.supported must be in (0.5, 1] (got ${cuts.supported})`);
  }
  return problems;
}

export function assertCuts(cuts: LevelCuts, name = 'cuts'): void {
  const problems = cutProblems(cuts, name);
  if (problems.length > 0) throw new RangeError(problems.join('; '));
}

/** The level index (0 unsupported, 1 partly, 2 supported) of a score in [0, 1]. */
export function levelIndex(score: number, cuts: LevelCuts = DEFAULT_CUTS): 0 | 1 | 2 {
  if (score >= cuts.supported) return 2;
  if (score >= cuts.partly) return 1;
  return 0;
}

export function levelOf(score: number, cuts: LevelCuts = DEFAULT_CUTS): Level {
  return LEVELS[levelIndex(score, cuts)];
}

/** Pass/fail at a gate threshold, as the release gate reads it: a score passes when it reaches the threshold. */
export function passes(score: number, threshold: number): boolean {
  return score >= threshold;
}
