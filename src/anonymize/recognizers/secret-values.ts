import type { Candidate } from '../types.js';

/**
 * Secrets without a vendor prefix, found from the secret keywords (keywords.ts: password, token, secret, api, access,
 * private, clave…) forwards, within the same line:
 * - a high-entropy token after a key word ("the service api key 5c74…", "Authorization: token da42…", "secret key
 *   oQKY…+3jT…"): 32+ hex characters, or 20+ base64/URL-safe characters mixing letters and digits;
 * - password-shaped words anywhere in a sentence about a password ("la contraseña del wifi es Tortuga_93! y la
 *   anterior era nube44#").
 * A hash word closer to the token than the key word ("commit", "sha256", "checksum", "digest") makes it a hash.
 * Also a 40-character base64 key on its own ("wJalrXUt…/K7MDENG/…"), the shape of cloud secret keys.
 */
const WINDOW = 90;
const HASH_CUE =
  /(?:commit|sha-?\d*|md5|checksum|digest|hash|revision|rev|build|etag|fingerprint|huella|uuid|request-id|trace_id)\W{0,3}$/i;
const PASSWORD_KEY = /^(?:pass|pwd|contrase|clave)/i;
const HEX = /^[0-9a-fA-F]{32,}$/;
const BASE64ISH = /^[A-Za-z0-9+/_-]{20,}={0,2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_CHAR = (c: number) =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 43 ||
  c === 47 ||
  c === 61 ||
  c === 95 ||
  c === 45;

/** Mixed letters and digits (and, for base64, both cases): not a word, not a number. */
function highEntropy(token: string): boolean {
  if (UUID.test(token)) return false;
  if (HEX.test(token)) return /\d/.test(token) && /[a-fA-F]/.test(token);
  if (!BASE64ISH.test(token)) return false;
  return /\d/.test(token) && /[a-z]/.test(token) && /[A-Z]/.test(token);
}

/** "Tortuga_93!", "*Yz*rQivU!BX", "T0rtug479": a letter and a digit, or a symbol and both cases; not a name, a date or an address. */
export function passwordShaped(token: string): boolean {
  if (token.length < 6 || token.length > 64 || !/\p{L}/u.test(token)) return false;
  if (UUID.test(token) || /^[0-9a-fA-F]{16,}$/.test(token)) return false;
  if (/[@]|:\/\/|^www\./i.test(token)) return false;
  const symbols = token.replace(/[\p{L}\p{N}]/gu, '');
  const digit = /\d/.test(token);
  if (digit)
    return (
      /\p{L}.*\d|\d.*\p{L}/u.test(token) &&
      !/^\d{1,4}[.,:/-]/.test(token) &&
      !/^(?:[A-Za-z]{1,3}\d{1,4}|\d+(?:st|nd|rd|th|º|ª|h|am|pm|min|kg|km|gb|mb)s?)$/i.test(token)
    );
  const realSymbols = symbols.replace(/['’-]/g, '');
  return realSymbols.length > 0 && /\p{Lu}/u.test(token) && /\p{Ll}/u.test(token);
}

/** The token around `at`: token characters, with trailing sentence punctuation dropped. */
function tokenAt(text: string, at: number, end: number): [number, number] {
  let e = at;
  while (e < end && !isBreak(text.charCodeAt(e))) e++;
  return [at, e];
}

const isBreak = (c: number) =>
  c === 32 ||
  c === 9 ||
  c === 10 ||
  c === 13 ||
  c === 34 ||
  c === 39 ||
  c === 96 ||
  c === 44 ||
  c === 59 ||
  c === 60 ||
  c === 62 ||
  c === 40 ||
  c === 41;

const trimEnd = (s: string) => s.replace(/[.,;:)\]}]+$/, '');

export function valuesAfterKeywords(text: string, hits: number[], out: Candidate[]): void {
  let done = 0;
  for (const hit of hits) {
    if (hit < done) continue;
    // The keyword itself, then the window up to the end of its line.
    let k = hit;
    while (k < text.length && !isBreak(text.charCodeAt(k)) && text.charCodeAt(k) !== 58 && text.charCodeAt(k) !== 61)
      k++;
    const lineEnd = text.indexOf('\n', k);
    const end = Math.min(text.length, hit + WINDOW, lineEnd < 0 ? text.length : lineEnd);
    const password = PASSWORD_KEY.test(text.slice(hit, hit + 8));
    for (let i = k; i < end;) {
      const c = text.charCodeAt(i);
      if (isBreak(c) || c === 58 || c === 61) {
        i++;
        continue;
      }
      const [s, e] = tokenAt(text, i, text.length);
      i = e;
      // Tokens are 20+ characters; passwords 6+.
      if (e - s < (password ? 6 : 20)) continue;
      const token = trimEnd(text.slice(s, e));
      const entropy = token.length >= 20 && highEntropy(token);
      if (!entropy && !(password && passwordShaped(token))) continue;
      if (HASH_CUE.test(text.slice(Math.max(k, s - 30), s))) continue;
      if (out.some((c) => c.start < s + token.length && s < c.end)) continue;
      out.push({ type: 'SECRET', start: s, end: s + token.length, score: entropy ? 0.85 : 0.75, normalized: token });
      done = e;
    }
  }
}

/** 40-character base64 keys standing alone (cloud secret keys): both cases, a digit and a '+' or '/'. */
export function base64Keys(text: string, keyRuns: number[], out: Candidate[]): void {
  let done = 0;
  for (let r = 0; r < keyRuns.length; r += 2) {
    let s = keyRuns[r]!;
    let e = keyRuns[r + 1]!;
    if (s < done) continue;
    while (s > 0 && TOKEN_CHAR(text.charCodeAt(s - 1))) s--;
    while (e < text.length && TOKEN_CHAR(text.charCodeAt(e))) e++;
    done = e;
    if (e - s !== 40) continue;
    const token = text.slice(s, e);
    if (!/[+/]/.test(token) || !highEntropy(token) || HASH_CUE.test(text.slice(Math.max(0, s - 30), s))) continue;
    if (out.some((c) => c.start < e && s < c.end)) continue;
    out.push({ type: 'SECRET', start: s, end: e, score: 0.7, normalized: token });
  }
}
