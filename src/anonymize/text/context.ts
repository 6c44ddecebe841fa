import { isWordCode } from './chars.js';
import { mapNonAscii } from './fold.js';

/** Helpers for Presidio-style context words: a cue within a short window before (or after) a span. */

/** The `window` characters before `start`, folded to lower case without accents. */
export function before(text: string, start: number, window: number): string {
  return foldWindow(text.slice(Math.max(0, start - window), start));
}

export function after(text: string, end: number, window: number): string {
  return foldWindow(text.slice(end, end + window));
}

const IS_MARK = /^\p{M}$/u;
const windowChars = new Map<string, string>();

/** A lower-case character without its accents ('á' → 'a'); combining marks vanish. */
function foldWindowChar(code: number): string {
  const ch = String.fromCharCode(code);
  let folded = windowChars.get(ch);
  if (folded === undefined) {
    folded = IS_MARK.test(ch) ? '' : ch.normalize('NFD').replace(/\p{M}+/gu, '');
    if (windowChars.size < 10_000) windowChars.set(ch, folded);
  }
  return folded;
}

/** Lower case without accents (as NFD without marks), for matching cue words; not length-preserving. */
export function foldWindow(s: string): string {
  const lower = s.toLowerCase();
  return mapNonAscii(lower, foldWindowChar);
}

/** True when `pattern` matches the window before `start` (the pattern decides whether it must touch the span). */
export function hasCueBefore(text: string, start: number, pattern: RegExp, window = 40): boolean {
  return pattern.test(before(text, start, window));
}

export function hasCueAfter(text: string, end: number, pattern: RegExp, window = 30): boolean {
  return pattern.test(after(text, end, window));
}

/** Adds a context boost, capped at 1. */
export function boost(score: number, by: number): number {
  return Math.min(1, Math.round((score + by) * 100) / 100);
}

/** True when the character is a letter or digit (Unicode aware). */
export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && ch.length > 0 && isWordCode(ch.charCodeAt(0));
}
