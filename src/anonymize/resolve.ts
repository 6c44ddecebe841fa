import { VALIDATED_TYPES, type Candidate } from './types.js';

/**
 * Keeps non-overlapping candidates: longest first, then highest score, then earliest. A URL that carries an
 * email keeps the URL; two recognizers claiming the same digits keep the better-scored one.
 */
export function resolveOverlaps(candidates: Candidate[], text?: string): Candidate[] {
  if (candidates.length <= 1) return candidates.slice();
  // Usually nothing overlaps: then the answer is the candidates by start.
  const byStart = [...candidates].sort((a, b) => a.start - b.start);
  let disjoint = true;
  for (let k = 1; k < byStart.length && disjoint; k++) disjoint = byStart[k - 1]!.end <= byStart[k]!.start;
  if (disjoint) return byStart;
  candidates = yieldToValidated(byStart, text);
  const ordered = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.score - a.score || a.start - b.start,
  );
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

const VALIDATED = new Set<string>(VALIDATED_TYPES);

/**
 * A checksum- or parser-validated value inside a looser span keeps its own type: an address line that runs into
 * "…, ático, Y 2253223 L" ends before the NIE. The looser span keeps its part before the value (or after it, when
 * the value opens it); one left with no letter or digit is dropped.
 */
function yieldToValidated(byStart: Candidate[], text: string | undefined): Candidate[] {
  const validated = byStart.filter((c) => VALIDATED.has(c.type));
  if (validated.length === 0) return byStart;
  const out: Candidate[] = [];
  for (const c of byStart) {
    if (VALIDATED.has(c.type) || c.type === 'URL') {
      out.push(c);
      continue;
    }
    let { start, end } = c;
    for (const v of validated) {
      if (v.end <= start || v.start >= end || (v.start <= start && v.end >= end)) continue;
      if (v.start > start) end = v.start;
      else start = v.end;
    }
    if (start === c.start && end === c.end) {
      out.push(c);
      continue;
    }
    // The separators between the two ("…, ático, " before the NIE) stay as written.
    const separator = (k: number) => text !== undefined && /[\s,;:(·-]/.test(text[k]!);
    while (end > start && separator(end - 1)) end--;
    while (start < end && separator(start)) start++;
    if (end > start) out.push({ ...c, start, end });
  }
  return out;
}
