/**
 * A judge score and a person's score of the same trace and metric, with what the tables group by. The caller
 * (the `calibrate report` wiring) builds them from Langfuse: ragwatch's own score and the human score of the
 * same trace and metric (an annotation-queue answer, or one already in Langfuse).
 */
export interface AnnotatedPair {
  traceId: string;
  /** ragwatch's metric name (`faithfulness`, `answer_relevancy`, …). */
  metric: string;
  /** The sample's language (`es`, `en`, …). */
  language: string;
  /** The golden item's stratum (`single-hop`, `multi-hop`, …) for an experiment trace; `online` for online traces. */
  stratum: string;
  traceName: string;
  origin: 'online' | 'experiment';
  /** Golden-set split of an experiment trace (`dev`, `test`, `unknown`); null for an online trace. */
  split: string | null;
  /** ragwatch's score, 0–1. */
  judge: number;
  /** The person's score, 0–1 (a 3-level answer as 0, 0.5 or 1). */
  human: number;
  /** The judge's reason and the person's comment, already anonymized by the caller; shown for disagreements only. */
  judgeReason?: string | null;
  humanComment?: string | null;
}

export interface Exclusion {
  metric: string | null;
  reason: string;
  count: number;
}

export const EXCLUSION = {
  judgeScore: 'the judge score is not a number in [0, 1]',
  humanScore: 'the human score is not a number in [0, 1]',
  noMetric: 'no metric name',
  duplicate: 'a second human score of the same trace and metric (the first is kept)',
} as const;

export interface CheckedPairs {
  pairs: AnnotatedPair[];
  excluded: Exclusion[];
}

const isScore = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** Keeps the pairs the figures can use, in order, and counts the others per metric and reason. */
export function checkPairs(pairs: readonly AnnotatedPair[]): CheckedPairs {
  const kept: AnnotatedPair[] = [];
  const counts = new Map<string, Exclusion>();
  const exclude = (metric: string | null, reason: string) => {
    const key = `${metric ?? ''}\u0000${reason}`;
    const entry = counts.get(key) ?? { metric, reason, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  };
  const seen = new Set<string>();
  for (const pair of pairs) {
    const metric = typeof pair.metric === 'string' && pair.metric !== '' ? pair.metric : null;
    if (metric === null) exclude(null, EXCLUSION.noMetric);
    else if (!isScore(pair.judge)) exclude(metric, EXCLUSION.judgeScore);
    else if (!isScore(pair.human)) exclude(metric, EXCLUSION.humanScore);
    else {
      const key = `${metric}\u0000${pair.traceId}`;
      if (seen.has(key)) exclude(metric, EXCLUSION.duplicate);
      else {
        seen.add(key);
        kept.push(pair);
      }
    }
  }
  return { pairs: kept, excluded: [...counts.values()] };
}
