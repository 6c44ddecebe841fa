import { classify } from './gazetteer/index.js';
import { execAll } from './text/exec-all.js';
import { fold } from './text/fold.js';
import type { Candidate, EntityType } from './types.js';

interface Surface {
  folded: string;
  type: EntityType;
  normalized: string;
  score: number;
  /** Words that are also ordinary words ("Grace", "Rosa") only count where they are capitalised mid-sentence. */
  capitalisedOnly: boolean;
}

const MAX_SURFACES = 400;

/**
 * Other occurrences of values already recognised somewhere in the same trace: a name spotted after "me llamo"
 * in the question is also redacted where the answer repeats it without any cue, with the same key, so it gets
 * the same placeholder. Words of a multi-word name count too ("García" after "María García"), unless they are
 * ordinary words.
 */
export function propagate(texts: string[], found: Candidate[][]): Candidate[][] {
  const surfaces = collectSurfaces(texts, found);
  if (surfaces.size === 0) return found;
  const ordered = [...surfaces.values()].sort((a, b) => b.folded.length - a.folded.length).slice(0, MAX_SURFACES);
  const pattern = new RegExp(ordered.map((s) => escape(s.folded)).join('|'), 'g');
  return texts.map((text, f) => {
    const own = found[f]!;
    const folded = fold(text);
    const extra: Candidate[] = [];
    for (const m of execAll(pattern, folded)) {
      const start = m.index;
      const end = start + m[0].length;
      if (isWordChar(text[start - 1]) || isWordChar(text[end])) continue;
      if (overlapsSorted(own, start, end) || (extra.length > 0 && extra[extra.length - 1]!.end > start)) continue;
      const s = surfaces.get(m[0])!;
      if (s.capitalisedOnly && !capitalisedName(text, start)) continue;
      extra.push({ type: s.type, start, end, score: s.score, normalized: s.normalized });
    }
    return extra.length === 0 ? own : [...own, ...extra].sort((a, b) => a.start - b.start);
  });
}

function collectSurfaces(texts: string[], found: Candidate[][]): Map<string, Surface> {
  const surfaces = new Map<string, Surface>();
  const add = (folded: string, c: Candidate, capitalisedOnly = false) => {
    if (folded.length < 3 || surfaces.has(folded)) return;
    surfaces.set(folded, { folded, type: c.type, normalized: c.normalized, score: c.score, capitalisedOnly });
  };
  found.forEach((cands, f) => {
    for (const c of cands) {
      const folded = fold(texts[f]!.slice(c.start, c.end));
      add(folded, c);
      if (c.type === 'PERSON') {
        for (const word of folded.split(/[^\p{L}'’-]+/u)) {
          const cls = classify(word);
          if (word.length >= 3 && !cls.common) add(word, c, cls.ambiguous);
        }
      }
    }
  });
  return surfaces;
}

/** `list` is sorted by start and disjoint. */
function overlapsSorted(list: Candidate[], start: number, end: number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const c = list[lo];
  return c !== undefined && c.start < end;
}

function capitalisedName(text: string, start: number): boolean {
  const c = text[start]!;
  if (c === c.toLowerCase()) return false;
  for (let k = start - 1; k >= 0; k--) {
    const p = text[k]!;
    if (p === ' ' || p === '\t') continue;
    return !/[.!?\n]/.test(p);
  }
  return false;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}
