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

/** A combining mark (Unicode \p{M}) of the BMP. */
export function isMarkCode(code: number): boolean {
  return code >= 128 && (classOf(code) & MARK) !== 0;
}

/** Letters and digits of any script (Unicode \p{L} and the decimal digits plus other \p{N} in the BMP). */
const IS_NUMBER = /^\p{N}$/u;
const numberTable = new Int8Array(65536);
export function isWordCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  if (isLetterCode(code)) return true;
  let n = numberTable[code]!;
  if (n === 0)
    numberTable[code] = n = code < 0xd800 || code > 0xdfff ? (IS_NUMBER.test(String.fromCharCode(code)) ? 1 : -1) : -1;
  return n === 1;
}

/** True when lower-casing changes the character (capital letters of every script). */
export function isUpperCode(code: number): boolean {
  if (code < 128) return code >= 65 && code <= 90;
  return (classOf(code) & UPPER) !== 0;
}

/** JavaScript's \s (white space and line terminators), by code unit. */
export function isSpaceCode(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The ASCII digits of `s`, in order (as s.replace(/\D/g, '')). */
export function digitsOf(s: string): string {
  let out = '';
  let from = -1;
  for (let k = 0; k <= s.length; k++) {
    const c = k < s.length ? s.charCodeAt(k) : -1;
    const digit = c >= 48 && c <= 57;
    if (digit && from < 0) from = k;
    else if (!digit && from >= 0) {
      out += s.slice(from, k);
      from = -1;
    }
  }
  return out;
}

/** `s` without spaces and dashes (as s.replace(/[ -]/g, '')). */
export function withoutSpacesAndDashes(s: string): string {
  if (s.indexOf(' ') < 0 && s.indexOf('-') < 0) return s;
  let out = '';
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c !== 32 && c !== 45) out += s[k];
  }
  return out;
}

/** `s` with each run of whitespace turned into one space (as s.replace(/\s+/g, ' ')). */
export function collapseSpaces(s: string): string {
  return /\s\s|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(s)
    ? s.replace(/\s+/g, ' ')
    : s;
}
