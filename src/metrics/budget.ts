/**
 * Deterministic token budgets for what goes to the judge. Counting uses a tokenizer-free estimate that errs
 * on the high side of BPE tokenizers (cl100k, Llama 3) for English and Spanish, so a text within budget here
 * is within budget for the judge too. A cut text ends with the marker the prompts explain (" […]").
 */

import { CUT_MARKER } from '../sample.js';

export { CUT_MARKER };

const PIECE = /(\p{L}+)|(\p{N}+)|[^\s\p{L}\p{N}]/gu;

/** Tokens of one piece: a letter run (ASCII-only runs are cheaper), a number run, or one symbol. */
function matchTokens(m: RegExpExecArray): number {
  const letters = m[1];
  if (letters !== undefined) return Math.max(1, Math.ceil(letters.length / (isAscii(letters) ? 7 : 4)));
  const digits = m[2];
  if (digits !== undefined) return Math.ceil(digits.length / 3);
  return 1;
}

/** A letter run is ASCII exactly when every code unit is below 128 (the ASCII letters are A–Z, a–z). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

const LETTERS = /\p{L}+/uy;
const DIGITS = /\p{N}+/uy;
const SPACES = /\s+/uy;

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAsciiDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** Where a run of `re` starting at `i` ends (`i` when there is none), without building a match array. */
function runEnd(re: RegExp, text: string, i: number): number {
  re.lastIndex = i;
  return re.test(text) ? re.lastIndex : i;
}

/**
 * Estimated token count of a text, piece by piece as PIECE cuts it. ASCII runs are scanned by char code and
 * only non-ASCII characters go through the Unicode classes (sticky `test`, no match arrays): this runs over
 * every question, answer and chunk of every evaluated trace, and `exec` allocated a match array per piece.
 */
export function estimateTokens(text: string): number {
  let n = 0;
  let i = 0;
  const end = text.length;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isAsciiSpace(c)) {
      i += 1;
      continue;
    }
    if (isAsciiLetter(c)) {
      let j = i + 1;
      while (j < end && isAsciiLetter(text.charCodeAt(j))) j += 1;
      // A letter run may go on with non-ASCII letters ("canción"): then it is not an ASCII run.
      const stop = j < end && text.charCodeAt(j) >= 128 ? runEnd(LETTERS, text, j) : j;
      n += Math.max(1, Math.ceil((stop - i) / (stop === j ? 7 : 4)));
      i = stop;
      continue;
    }
    if (isAsciiDigit(c)) {
      let j = i + 1;
      while (j < end && isAsciiDigit(text.charCodeAt(j))) j += 1;
      const stop = j < end && text.charCodeAt(j) >= 128 ? runEnd(DIGITS, text, j) : j;
      n += Math.ceil((stop - i) / 3);
      i = stop;
      continue;
    }
    if (c >= 128) {
      const letters = runEnd(LETTERS, text, i);
      if (letters > i) {
        n += Math.max(1, Math.ceil((letters - i) / 4));
        i = letters;
        continue;
      }
      const digits = runEnd(DIGITS, text, i);
      if (digits > i) {
        n += Math.ceil((digits - i) / 3);
        i = digits;
        continue;
      }
      const spaces = runEnd(SPACES, text, i);
      if (spaces > i) {
        i = spaces;
        continue;
      }
    }
    // One symbol: one code point.
    n += 1;
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return n;
}

export interface Fitted {
  text: string;
  truncated: boolean;
  originalTokens: number;
  keptTokens: number;
}

/** Keeps the longest word-aligned prefix of `text` within `budget` tokens, marking a cut; never cuts it to nothing. */
export function fitText(text: string, budget: number): Fitted {
  const originalTokens = estimateTokens(text);
  if (originalTokens <= budget) return { text, truncated: false, originalTokens, keptTokens: originalTokens };
  const room = Math.max(0, budget - estimateTokens(CUT_MARKER));
  let used = 0;
  let end = 0;
  let insidePiece = false;
  const re = new RegExp(PIECE);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const cost = matchTokens(m);
    if (used + cost > room) {
      // Not even the first piece fits (a 100k-character run without spaces): keep the part of it that does.
      if (end === 0 && room > 0) {
        end = m.index + pieceCut(m, room);
        insidePiece = end > m.index;
      }
      break;
    }
    used += cost;
    end = m.index + m[0].length;
  }
  // Prefer ending at a word boundary: drop a partial word glued to the next piece.
  let cut = text.slice(0, end);
  const nextChar = text.charAt(end);
  if (!insidePiece && nextChar !== '' && /[\p{L}\p{N}]/u.test(nextChar)) {
    const lastSpace = cut.search(/\s\S*$/u);
    if (lastSpace > 0 && cut.slice(0, lastSpace).trim() !== '') cut = cut.slice(0, lastSpace);
  }
  const kept = `${cut.trimEnd()}${CUT_MARKER}`;
  return { text: kept, truncated: true, originalTokens, keptTokens: estimateTokens(kept) };
}

/** Code units of a letter or digit run that fit `room` tokens (a letter costs at most 1/4, a digit 1/3). */
function pieceCut(m: RegExpExecArray, room: number): number {
  const piece = m[0];
  if (m[1] === undefined && m[2] === undefined) return 0;
  let k = Math.min(piece.length, room * (m[2] !== undefined ? 3 : 4));
  const last = piece.charCodeAt(k - 1);
  if (k < piece.length && last >= 0xd800 && last <= 0xdbff) k -= 1;
  return k;
}

/** A cut text with nothing of its own left, only the marker. */
function isEmptied(f: Fitted): boolean {
  return f.truncated && f.text.slice(0, -CUT_MARKER.length).trim() === '';
}

export interface FittedChunks {
  /** The chunks sent: a prefix of the retrieved ones, in retrieval order; only the last may be cut. */
  chunks: Fitted[];
  truncated: boolean;
  /** Retrieved chunks left out after the budget ran out. */
  droppedChunks: number;
  /** Estimated tokens of every retrieved chunk, kept or not. */
  originalTokens: number;
}

/** Least room worth cutting a chunk into; with less left, the chunk is left out instead. */
export const MIN_CUT_CHUNK_TOKENS = 32;

/**
 * Fits retrieved chunks into one shared budget: whole leading chunks in retrieval order while they fit (the
 * retriever ranked them), then the first that does not fit, cut, when at least MIN_CUT_CHUNK_TOKENS are left (or
 * when nothing was kept yet), and none after it. No chunk is ever cut to nothing: the judge never scores on
 * chunks a budget emptied, and kept chunks keep their numbers.
 */
export function fitChunks(chunks: readonly string[], budget: number): FittedChunks {
  const kept: Fitted[] = [];
  let remaining = budget;
  let originalTokens = 0;
  let full = false;
  let content = false;
  for (const chunk of chunks) {
    const size = estimateTokens(chunk);
    originalTokens += size;
    if (full) continue;
    if (size <= remaining) {
      kept.push({ text: chunk, truncated: false, originalTokens: size, keptTokens: size });
      remaining -= size;
      content ||= size > 0;
      continue;
    }
    full = true;
    if (!content || remaining >= MIN_CUT_CHUNK_TOKENS) {
      const cut = fitText(chunk, remaining);
      if (!isEmptied(cut)) kept.push(cut);
    }
  }
  const droppedChunks = chunks.length - kept.length;
  return { chunks: kept, truncated: droppedChunks > 0 || kept.some((f) => f.truncated), droppedChunks, originalTokens };
}
