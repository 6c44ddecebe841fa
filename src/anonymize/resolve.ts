import type { Candidate } from './types.js';

/**
 * Keeps non-overlapping candidates: longest first, then highest score, then earliest. A URL that carries an
 * email keeps the URL; two recognizers claiming the same digits keep the better-scored one.
 */
export function resolveOverlaps(candidates: Candidate[]): Candidate[] {
  if (candidates.length <= 1) return candidates.slice();
  // Usually nothing overlaps: then the answer is the candidates by start.
  const byStart = [...candidates].sort((a, b) => a.start - b.start);
  let disjoint = true;
  for (let k = 1; k < byStart.length && disjoint; k++) disjoint = byStart[k - 1]!.end <= byStart[k]!.start;
  if (disjoint) return byStart;
  const ordered = [...candidates].sort((a, b) => b.end - b.start - (a.end - a.start) || b.score - a.score || a.start - b.start);
  // Kept spans, sorted by start and disjoint: one binary search per candidate.
  const kept: Candidate[] = [];
  for (const c of ordered) {
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid]!.start < c.start) lo = mid + 1;
      else hi = mid;
    }
    const prev = kept[lo - 1];
    const next = kept[lo];
    if ((prev && prev.end > c.start) || (next && next.start < c.end)) continue;
    kept.splice(lo, 0, c);
  }
  return kept;
}
