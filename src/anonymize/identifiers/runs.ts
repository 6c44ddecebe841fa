import { isDigitCode, isWordCode } from '../text/chars.js';
import type { TextFacts } from '../text/facts.js';
import { runWindows } from '../text/windows.js';

/**
 * A number as people write one: digit groups with the separators phones, identifiers, dates and amounts use
 * ("+44 (0)7700 900 192", "611 22 33 44", "88-1930", "2024-11-07 23:04:37,224", "1.234,56"), a `+` or `(` before,
 * and up to six letters glued to its start ("E-48213", "CL-20931", "INC0048213", "v2.3.1") or three to its end
 * ("12345678Z"). Digits inside a longer mixed token (a UUID, a hash, "a716-4466…") are not a run.
 */
export interface NumberRun {
  start: number;
  end: number;
  /** Letters (and the `-`/`_` after them) glued before the first digit, `+` and `(` excluded. */
  prefix: number;
  /** Letters (and a `-` before them) glued after the last digit. */
  suffix: number;
  digits: number;
  /**
   * The digits sit inside a token that mixes letters and digits ("12X34567", "a93847561bcd", a UUID): the run is
   * that whole token, an identifier only where a label says so.
   */
  mixed: boolean;
}

const SPACE = 32;
const TAB = 9;
const PLUS = 43;
const OPEN = 40;
const CLOSE = 41;
const DOT = 46;
const DASH = 45;
const SLASH = 47;
const COLON = 58;
const COMMA = 44;
const UNDERSCORE = 95;

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isUpperAscii = (c: number) => c >= 65 && c <= 90;
const isBlank = (c: number) => c === SPACE || c === TAB;
/** Separators between digit groups. */
const isSeparator = (c: number) =>
  c === SPACE || c === TAB || c === DOT || c === DASH || c === SLASH || c === OPEN || c === CLOSE;
const MAX_PREFIX_LETTERS = 6;
const MAX_SUFFIX_LETTERS = 3;

/**
 * The runs with at least `minDigits` digits, in order, found around the text's digit runs (facts.ts); tokens whose
 * digits come in shorter groups ("N079M679") only when the text has digits outside those runs.
 */
export function numberRuns(text: string, facts: TextFacts, minDigits: number): NumberRun[] {
  const runs = digitGroupRuns(text, facts, minDigits);
  let listed = 0;
  for (let r = 0; r < facts.digitRuns.length; r += 4) listed += facts.digitRuns[r + 2]!;
  if (facts.digits - listed < minDigits) return runs;
  const mixed = mixedTokens(text, minDigits).filter((m) => !runs.some((r) => r.start < m.end && m.start < r.end));
  return mixed.length === 0 ? runs : [...runs, ...mixed].sort((a, b) => a.start - b.start);
}

/** Tokens mixing letters and digits whose digit groups are all shorter than four ("N079M679", "AB12-C34"). */
function mixedTokens(text: string, minDigits: number): NumberRun[] {
  const out: NumberRun[] = [];
  const n = text.length;
  for (let k = 0; k < n; k++) {
    if (!isDigitCode(text.charCodeAt(k))) continue;
    const run = mixedToken(text, k);
    if (run.digits >= minDigits && /[A-Za-z]/.test(text.slice(run.start, run.end))) out.push(run);
    k = Math.max(k, run.end);
  }
  return out;
}

function digitGroupRuns(text: string, facts: TextFacts, minDigits: number): NumberRun[] {
  const runs: NumberRun[] = [];
  if (facts.digits < minDigits) return runs;
  const windows = runWindows(text, facts.digitRuns, minDigits, MAX_PREFIX_LETTERS + 2, 2);
  let taken = 0;
  for (let w = 0; w < windows.length; w += 2) {
    for (let k = Math.max(taken, windows[w]!); k < windows[w + 1]!; k++) {
      const c = text.charCodeAt(k);
      const startsRun =
        isDigitCode(c) ||
        ((c === PLUS || c === OPEN) && (isDigitCode(text.charCodeAt(k + 1)) || text.charCodeAt(k + 1) === PLUS));
      if (!startsRun || (k > 0 && isDigitCode(text.charCodeAt(k - 1)))) continue;
      const run = runAt(text, k);
      if (run === undefined) continue;
      if (run.digits >= minDigits) runs.push(run);
      taken = Math.max(run.end, k + 1);
      k = taken - 1;
    }
  }
  return runs;
}

/** The run starting at `from` (a digit, `+` or `(`), or undefined when its digits belong to a longer word. */
function runAt(text: string, from: number): NumberRun | undefined {
  const n = text.length;
  let k = from;
  let digits = 0;
  let lastDigitEnd = -1;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (isDigitCode(c)) {
      digits++;
      k++;
      lastDigitEnd = k;
      continue;
    }
    if (k === from && (c === PLUS || c === OPEN)) {
      k++;
      continue;
    }
    // "23:04", "1.234,56": a colon or comma between two digits.
    if ((c === COLON || c === COMMA) && lastDigitEnd === k && isDigitCode(text.charCodeAt(k + 1))) {
      k++;
      continue;
    }
    if (!isSeparator(c) || lastDigitEnd < 0) break;
    // A gap of at most three separators with at most one blank, and no sentence stop (". ", " / ") beside a blank.
    let j = k;
    let blanks = 0;
    let stop = false;
    while (j < n && j - k <= 3 && isSeparator(text.charCodeAt(j))) {
      const g = text.charCodeAt(j);
      if (isBlank(g)) blanks++;
      else if (g === DOT || g === SLASH) stop = true;
      j++;
    }
    if (j - k > 3 || blanks > 1 || (blanks > 0 && stop) || j >= n) break;
    const next = text.charCodeAt(j);
    if (!isDigitCode(next) && !(next === PLUS && blanks > 0)) break;
    k = j;
  }
  if (lastDigitEnd < 0) return undefined;
  let start = from;
  const end = lastDigitEnd;
  // "(311) 555-0106" keeps its bracket; "(11/11/2026)" is a number in brackets.
  if (text.charCodeAt(from) === OPEN) {
    const close = text.indexOf(')', from);
    if (close < 0 || close >= end) start = from + 1;
  }
  // Letters glued before: "E-48213", "INC0048213", "ES63 …" (not across a blank).
  let p = start;
  if (text.charCodeAt(p) !== PLUS && text.charCodeAt(p) !== OPEN && p === from) {
    let q = p;
    if (
      (text.charCodeAt(q - 1) === DASH || text.charCodeAt(q - 1) === UNDERSCORE) &&
      isAsciiLetter(text.charCodeAt(q - 2))
    )
      q--;
    let letters = 0;
    while (q > 0 && isAsciiLetter(text.charCodeAt(q - 1))) {
      q--;
      letters++;
    }
    if (letters > 0) {
      if (letters > MAX_PREFIX_LETTERS) return mixedToken(text, from);
      p = q;
    } else if (q !== p) q = p;
  }
  // The token around the run: a letter or digit glued before the prefix (through "-", "_", ".") is a longer code.
  if (p > 0 && gluedWord(text, p - 1, -1)) return mixedToken(text, from);
  start = p;
  // Letters glued after: "12345678Z", "4567-B".
  let e = end;
  {
    let q = e;
    if (text.charCodeAt(q) === DASH && isAsciiLetter(text.charCodeAt(q + 1))) q++;
    let letters = 0;
    while (q < n && isAsciiLetter(text.charCodeAt(q))) {
      q++;
      letters++;
    }
    if (letters > MAX_SUFFIX_LETTERS) return mixedToken(text, from);
    if (letters > 0) e = q;
    // "21488689 J": a document number's control letter after a blank.
    else if (
      (digits === 7 || digits === 8) &&
      text.charCodeAt(e) === SPACE &&
      isUpperAscii(text.charCodeAt(e + 1)) &&
      !isWordCode(text.charCodeAt(e + 2))
    )
      e += 2;
  }
  if (e < n && gluedWord(text, e, 1)) return mixedToken(text, from);
  const suffix = e - end;
  return { start, end: e, prefix: Math.max(0, from - start), suffix, digits, mixed: false };
}

const isJoiner = (c: number) => c === DASH || c === UNDERSCORE || c === DOT || c === SLASH;

/** The whole token of letters and digits (joined by "-", "_", ".", "/") around `at`. */
function mixedToken(text: string, from: number): NumberRun {
  // From the first digit: a "+" or "(" before it is not part of the token.
  let at = from;
  while (!isDigitCode(text.charCodeAt(at))) at++;
  let s = at;
  while (
    s > 0 &&
    (isWordCode(text.charCodeAt(s - 1)) ||
      (isJoiner(text.charCodeAt(s - 1)) && s > 1 && isWordCode(text.charCodeAt(s - 2))))
  )
    s--;
  let e = at;
  while (
    e < text.length &&
    (isWordCode(text.charCodeAt(e)) || (isJoiner(text.charCodeAt(e)) && isWordCode(text.charCodeAt(e + 1))))
  )
    e++;
  let digits = 0;
  for (let k = s; k < e; k++) if (isDigitCode(text.charCodeAt(k))) digits++;
  return { start: s, end: e, prefix: 0, suffix: 0, digits, mixed: true };
}

/**
 * Whether the character at `at` (next to a run, looking in `direction`) continues a word: a letter or digit, or a
 * joiner ("-", "_", ".", "/") followed by one. "a716-446655440000" and "…4000-e29b" are parts of a UUID.
 */
function gluedWord(text: string, at: number, direction: 1 | -1): boolean {
  const c = text.charCodeAt(at);
  if (isWordCode(c)) return true;
  if (c !== DASH && c !== UNDERSCORE && c !== DOT && c !== SLASH) return false;
  const beyond = at + direction;
  if (beyond < 0 || beyond >= text.length) return false;
  const b = text.charCodeAt(beyond);
  // "… 48.", "(…)-": a sentence's full stop or a dash after the value is not glue; a letter or digit beyond it is.
  return c === DOT ? isAsciiLetter(b) || isDigitCode(b) : isWordCode(b);
}
