/**
 * Character classes by code unit, without a Unicode regex per character: ASCII is decided inline, other BMP code
 * units once each (then remembered in a table). Astral characters (emoji, historic scripts) are never letters here:
 * no name or cue the recognizers look for is written with them.
 */
const LETTER = 1;
const MARK = 2;
const UPPER = 4;
const KNOWN = 8;

const table = new Uint8Array(65536);
const IS_LETTER = /^\p{L}$/u;
const IS_MARK = /^\p{M}$/u;

function classOf(code: number): number {
  let c = table[code]!;
  if (c !== 0) return c;
  const ch = String.fromCharCode(code);
  // Lone surrogates are halves of astral characters: neither letters nor marks.
  const surrogate = code >= 0xd800 && code <= 0xdfff;
  c = KNOWN;
  if (!surrogate && IS_LETTER.test(ch)) c |= LETTER;
  if (!surrogate && IS_MARK.test(ch)) c |= MARK;
  if (!surrogate && ch !== ch.toLowerCase()) c |= UPPER;
  table[code] = c;
  return c;
}

export function isLetterCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return (classOf(code) & LETTER) !== 0;
}

/** A letter or a combining mark (the tail of a word written with decomposed accents). */
export function isLetterOrMarkCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return (classOf(code) & (LETTER | MARK)) !== 0;
}

export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Letters and digits of any script (Unicode \p{L} and the decimal digits plus other \p{N} in the BMP). */
const IS_NUMBER = /^\p{N}$/u;
const numberTable = new Int8Array(65536);
export function isWordCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  if (isLetterCode(code)) return true;
  let n = numberTable[code]!;
  if (n === 0) numberTable[code] = n = code < 0xd800 || code > 0xdfff ? (IS_NUMBER.test(String.fromCharCode(code)) ? 1 : -1) : -1;
  return n === 1;
}

/** True when lower-casing changes the character (capital letters of every script). */
export function isUpperCode(code: number): boolean {
  if (code < 128) return code >= 65 && code <= 90;
  return (classOf(code) & UPPER) !== 0;
}

export function isAscii(text: string, from = 0, to = text.length): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}
