import { classify, isOrganization, isTechnology, TITLES } from './gazetteer/index.js';
import { COMPANY_WORDS, PLACE_WORDS, TRAILING_PLACE_WORDS } from './recognizers/person-cues.js';
import { isLetterCode, isWordCode } from './text/chars.js';
import { fold, foldToken } from './text/fold.js';
import type { Candidate, EntityType } from './types.js';

interface Surface {
  folded: string;
  type: EntityType;
  normalized: string;
  score: number;
  /** Words that are also ordinary words ("Grace", "Rosa") only count where they are capitalised mid-sentence. */
  capitalisedOnly: boolean;
  /** A name read from an e-mail address's local part: only where it is written capitalised (see emailNames). */
  fromEmail?: boolean;
  /** Read from a "first.last" local part. */
  firstLast?: boolean;
}

const MAX_SURFACES = 400;

/**
 * Other occurrences of values already recognised somewhere in the same trace: a name spotted after "me llamo"
 * in the question is also redacted where the answer repeats it without any cue, with the same key, so it gets
 * the same placeholder. Words of a multi-word name count too ("García" after "María García"), unless they are
 * ordinary words.
 */
export function propagate(texts: string[], found: Candidate[][]): Candidate[][] {
  // fold keeps positions: a candidate's folded value is a slice of its folded text. Each text is folded once, when needed.
  const foldedTexts: Array<string | undefined> = texts.map((t, f) => (found[f]!.length > 0 ? fold(t) : undefined));
  const surfaces = collectSurfaces(foldedTexts, found);
  if (surfaces.size === 0) return found;
  const list = [...surfaces.values()];
  if (list.length > MAX_SURFACES) list.sort((a, b) => b.folded.length - a.folded.length).length = MAX_SURFACES;
  let byPrefix: Map<string, Surface[]> | undefined;
  return texts.map((text, f) => {
    const own = found[f]!;
    const folded = (foldedTexts[f] ??= fold(text));
    // Few values in a short text: one indexOf per value. Otherwise one Map lookup per word start.
    let hits: Hit[];
    if (list.length * text.length <= 50_000) hits = occurrencesByIndexOf(folded, list);
    else hits = occurrencesByPrefix(folded, (byPrefix ??= prefixIndex(list)));
    if (hits.length === 0) return own;
    // Earliest first, longest first at the same start. A hit may overlap only spans of its own type that it contains:
    // "D. Vicente" found by its title becomes the whole "Vicente Albiol Sanchis" seen elsewhere.
    hits.sort((a, b) => a.start - b.start || b.surface.folded.length - a.surface.folded.length);
    const extra: Candidate[] = [];
    let widened: Set<Candidate> | undefined;
    for (const { start, surface: s } of hits) {
      const end = start + s.folded.length;
      if (isWordChar(text, start - 1) || isWordChar(text, end)) continue;
      if (extra.length > 0 && extra[extra.length - 1]!.end > start) continue;
      const first = firstOverlap(own, start);
      let last = first;
      while (last < own.length && own[last]!.start < end) last++;
      let widens = true;
      for (let k = first; k < last && widens; k++) {
        const c = own[k]!;
        widens = c.type === s.type && c.start >= start && c.end <= end && c.end - c.start < end - start;
      }
      if (!widens) continue;
      if (s.capitalisedOnly && !capitalisedName(text, start, end)) continue;
      if (s.fromEmail && !writtenAsName(text, start, s)) continue;
      if (s.type === 'PERSON' && partOfOtherName(text, start, end, s)) continue;
      for (let k = first; k < last; k++) (widened ??= new Set()).add(own[k]!);
      extra.push({ type: s.type, start, end, score: s.score, normalized: s.normalized });
    }
    if (extra.length === 0) return own;
    const kept = widened ? own.filter((c) => !widened.has(c)) : own;
    return [...kept, ...extra].sort((a, b) => a.start - b.start);
  });
}

interface Hit {
  start: number;
  surface: Surface;
}

function occurrencesByIndexOf(folded: string, surfaces: Surface[]): Hit[] {
  const hits: Hit[] = [];
  for (const surface of surfaces) {
    for (let at = folded.indexOf(surface.folded); at !== -1; at = folded.indexOf(surface.folded, at + 1))
      hits.push({ start: at, surface });
  }
  return hits;
}

const PREFIX = 3;

function prefixIndex(surfaces: Surface[]): Map<string, Surface[]> {
  const index = new Map<string, Surface[]>();
  for (const s of surfaces) {
    const key = s.folded.slice(0, PREFIX);
    const list = index.get(key);
    if (list) list.push(s);
    else index.set(key, [s]);
  }
  return index;
}

/** Occurrences that start where a word can start (the text's start, or after a character that is not a letter or digit). */
function occurrencesByPrefix(folded: string, index: Map<string, Surface[]>): Hit[] {
  const hits: Hit[] = [];
  for (let at = 0; at + PREFIX <= folded.length; at++) {
    if (at > 0 && isWordCode(folded.charCodeAt(at - 1))) continue;
    const candidates = index.get(folded.slice(at, at + PREFIX));
    if (candidates === undefined) continue;
    for (const surface of candidates) if (folded.startsWith(surface.folded, at)) hits.push({ start: at, surface });
  }
  return hits;
}

function collectSurfaces(foldedTexts: Array<string | undefined>, found: Candidate[][]): Map<string, Surface> {
  const surfaces = new Map<string, Surface>();
  const add = (folded: string, c: Candidate, capitalisedOnly = false) => {
    if (folded.length < 3 || surfaces.has(folded)) return;
    surfaces.set(folded, { folded, type: c.type, normalized: c.normalized, score: c.score, capitalisedOnly });
  };
  found.forEach((cands, f) => {
    for (const c of cands) {
      const folded = foldedTexts[f]!.slice(c.start, c.end);
      add(folded, c);
      if (c.type === 'PERSON') {
        for (const word of nameWords(folded)) {
          const cls = classify(word);
          if (word.length >= 3 && !cls.common) add(word, c, cls.ambiguous);
        }
      }
    }
  });
  // After every recognised name: a word already known from one keeps that name's key.
  for (const cands of found) for (const c of cands) if (c.type === 'EMAIL') emailNames(c.normalized, surfaces);
  return surfaces;
}

/** The words of a folded name: runs of letters, apostrophes and hyphens (as splitting on /[^\p{L}'’-]+/u). */
function nameWords(folded: string): string[] {
  const words: string[] = [];
  let from = -1;
  for (let k = 0; k <= folded.length; k++) {
    const c = k < folded.length ? folded.charCodeAt(k) : -1;
    const part = c >= 0 && (isLetterCode(c) || c === 39 || c === 0x2019 || c === 45);
    if (part && from < 0) from = k;
    else if (!part && from >= 0) {
      words.push(folded.slice(from, k));
      from = -1;
    }
  }
  return words;
}

/** Index of the first span of `list` (sorted by start, disjoint) that ends after `start`. */
function firstOverlap(list: Candidate[], start: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Written as a name: capitalised mid-sentence, or at a sentence's start standing alone, as a sign-off or a vocative
 * ("…, gracias. Óscar", "Rosa, te llamo luego").
 */
function capitalisedName(text: string, start: number, end = start): boolean {
  const c = text[start]!;
  if (c === c.toLowerCase()) return false;
  for (let k = start - 1; k >= 0; k--) {
    const p = text[k]!;
    if (p === ' ' || p === '\t') continue;
    if (!/[.!?\n]/.test(p)) return true;
    break;
  }
  return end > start && /^\s*(?:[,.!?\n]|$)/.test(text.slice(end, end + 2));
}

function isWordChar(text: string, at: number): boolean {
  return at >= 0 && at < text.length && isWordCode(text.charCodeAt(at));
}

const NEXT_WORD = /^[ \t]{1,2}(\p{Lu}[\p{L}\p{M}'’-]*)/u;
const PREVIOUS_WORD = /(\p{L}[\p{L}\p{M}'’-]*)\.?[ \t]{1,2}$/u;
const LINKS = new Set(['de', 'del', 'la', 'las', 'los', 'el', 'of', 'the', 'y', 'i', 'and']);
const LOCATIVE = new Set(['en', 'in', 'desde', 'hacia']);

/**
 * A name seen elsewhere in the trace, here inside another name: a place's or an organisation's ("Plaza del Pilar",
 * "Hospital Gregorio Marañón", "Carolina Herrera" the brand when the person is Carolina Pérez, "Victoria Station",
 * "… Ltd"), or a word of it before a capitalised word that is no name (a brand's or a place's other word), or a
 * lone word after "en"/"in" (a town named like her).
 */
function partOfOtherName(text: string, start: number, end: number, s: Surface): boolean {
  const whole = s.folded.includes(' ');
  const next = NEXT_WORD.exec(text.slice(end, end + 40));
  if (next) {
    const key = foldToken(next[1]!).replace(/['’]s$/, '');
    if (TRAILING_PLACE_WORDS.has(key) || COMPANY_WORDS.has(key)) return true;
    // A capitalised word that is no name at all after a word of hers: a brand's or a place's ("Tate Modern").
    if (!whole && !LINKS.has(key) && !TITLES.has(key) && !` ${s.normalized} `.includes(` ${key} `)) {
      const cls = classify(key);
      if (cls.common || !(cls.given || cls.surname)) return true;
    }
    if (isOrganization(`${foldToken(text.slice(start, end))} ${key}`)) return true;
  }
  // Back over links and titles ("Plaza del", "Hospital Dr.") to a place word.
  let k = start;
  for (let steps = 0; steps < 4; steps++) {
    const prev = PREVIOUS_WORD.exec(text.slice(Math.max(0, k - 30), k));
    if (!prev) return false;
    const key = foldToken(prev[1]!);
    if (PLACE_WORDS.has(key)) return true;
    if (steps === 0 && !whole && LOCATIVE.has(key)) return true;
    if (!LINKS.has(key) && !TITLES.has(key)) return false;
    k -= prev[0].length;
  }
  return false;
}

/**
 * "ffion.baker87@…", "leo_grant@…": the words of a personal e-mail address's local part (three letters or more, no
 * organisation or technology) name its owner, so the trace's capitalised "Ffion" is that person even when no
 * gazetteer knows the name. Keyed on the word: settleKeys joins it to a full name that holds it.
 */
function emailNames(address: string, surfaces: Map<string, Surface>): void {
  const local = address.slice(0, address.lastIndexOf('@'));
  const words = local.split(/[^a-z\u00e0-\u024f]+/).filter((w) => w.length >= 2);
  // A personal address: no ordinary word in it ("sales.team", "hello"), and a name a list knows ("ffion.baker87").
  const classes = words.map((w) => classify(w));
  if (classes.some((c) => c.common) || !classes.some((c) => c.given || c.surname)) return;
  for (const word of words) {
    if (word.length < 3 || surfaces.has(word) || isTechnology(word) || isOrganization(word) || PLACE_WORDS.has(word))
      continue;
    // "first.last": both words are the owner's, capitalised anywhere (a sentence's first word included).
    surfaces.set(word, {
      folded: word,
      type: 'PERSON',
      normalized: word,
      score: 0.7,
      capitalisedOnly: false,
      fromEmail: true,
      firstLast: words.length >= 2,
    });
  }
}

/**
 * An e-mail's word where the text writes it as a name: capitalised (not in capitals), not glued to the address it
 * came from, mid-sentence or, for a name the gazetteer knows, anywhere.
 */
function writtenAsName(text: string, start: number, s: Surface): boolean {
  const c = text.charCodeAt(start);
  if (!(c >= 65 && c <= 90) && !(c > 127 && text[start] !== text[start]!.toLowerCase())) return false;
  const end = start + s.folded.length;
  if (text.slice(start, end) === text.slice(start, end).toUpperCase()) return false;
  if (text[end] === '@' || (text[end] === '.' && /\w/.test(text[end + 1] ?? ''))) return false;
  const cls = classify(s.folded);
  return s.firstLast === true || cls.given || cls.surname || capitalisedName(text, start);
}
