/**
 * The worst disagreements between the judge and people, per metric, with both reasons: where to look first
 * when agreement is low (a prompt that misreads a language, a stratum the judge is too small for).
 *
 * Only online traces and the golden set's dev split are listed. Test-split items stay aggregate, as in the
 * weekly report: whoever tunes the judge's prompts on the disagreements they read would otherwise tune on the
 * items that are meant to tell whether the tuning worked. An experiment trace whose split is unknown is
 * treated as test. The reasons are shown as the caller gives them (anonymized before they get here).
 */
import { DEFAULT_CUTS, levelOf, type Level, type LevelCuts } from './levels.js';
import { checkPairs, type AnnotatedPair } from './pairs.js';

export interface Disagreement {
  traceId: string;
  metric: string;
  language: string;
  stratum: string;
  traceName: string;
  origin: AnnotatedPair['origin'];
  split: string | null;
  judge: number;
  human: number;
  /** |judge − human|. */
  gap: number;
  judgeLevel: Level;
  humanLevel: Level;
  judgeReason: string | null;
  humanComment: string | null;
}

export interface DisagreementOptions {
  /** Listed per metric; default 5. */
  limit?: number;
  cuts?: Readonly<Record<string, LevelCuts>>;
  /** Below this gap a pair is not a disagreement worth listing; default 0.25 (half a level). */
  minGap?: number;
}

export interface DisagreementList {
  metric: string;
  worst: Disagreement[];
  /** Pairs of this metric held back: test split or unknown split. */
  heldBack: number;
}

export const DEFAULT_DISAGREEMENT_LIMIT = 5;
export const DEFAULT_MIN_GAP = 0.25;

export function isListable(pair: Pick<AnnotatedPair, 'origin' | 'split'>): boolean {
  return pair.origin === 'online' || pair.split === 'dev';
}

export function worstDisagreements(
  input: readonly AnnotatedPair[],
  options: DisagreementOptions = {},
): DisagreementList[] {
  const limit = options.limit ?? DEFAULT_DISAGREEMENT_LIMIT;
  const minGap = options.minGap ?? DEFAULT_MIN_GAP;
  if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`limit must be a whole number (got ${limit})`);
  if (!(minGap >= 0 && minGap <= 1)) throw new RangeError(`minGap must be in [0, 1] (got ${minGap})`);
  const byMetric = new Map<string, DisagreementList>();
  for (const pair of checkPairs(input).pairs) {
    let list = byMetric.get(pair.metric);
    if (!list) {
      list = { metric: pair.metric, worst: [], heldBack: 0 };
      byMetric.set(pair.metric, list);
    }
    if (!isListable(pair)) {
      list.heldBack += 1;
      continue;
    }
    const gap = Math.abs(pair.judge - pair.human);
    if (gap < minGap) continue;
    const cuts = options.cuts?.[pair.metric] ?? DEFAULT_CUTS;
    list.worst.push({
      traceId: pair.traceId,
      metric: pair.metric,
      language: pair.language,
      stratum: pair.stratum,
      traceName: pair.traceName,
      origin: pair.origin,
      split: pair.split,
      judge: pair.judge,
      human: pair.human,
      gap,
      judgeLevel: levelOf(pair.judge, cuts),
      humanLevel: levelOf(pair.human, cuts),
      judgeReason: pair.judgeReason ?? null,
      humanComment: pair.humanComment ?? null,
    });
  }
  const lists = [...byMetric.values()].sort((a, b) => (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
  for (const list of lists) {
    list.worst.sort((a, b) => b.gap - a.gap || (a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : 0));
    list.worst = list.worst.slice(0, limit);
  }
  return lists;
}
