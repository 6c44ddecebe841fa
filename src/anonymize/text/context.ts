import { isAscii, isWordCode } from './chars.js';

/** Helpers for Presidio-style context words: a cue within a short window before (or after) a span. */

/** The `window` characters before `start`, folded to lower case without accents. */
export function before(text: string, start: number, window: number): string {
  return foldWindow(text.slice(Math.max(0, start - window), start));
}

export function after(text: string, end: number, window: number): string {
  return foldWindow(text.slice(end, end + window));
}

const MARKS = /\p{M}+/gu;

/** Lower case without accents; plain ASCII (most windows) skips the Unicode normalisation. */
export function foldWindow(s: string): string {
  return isAscii(s) ? s.toLowerCase() : s.toLowerCase().normalize('NFD').replace(MARKS, '');
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
