/**
 * Case- and accent-folding that keeps string length, so positions found in a folded string are valid in the
 * original: 'García' → 'garcia', 'ÑOÑO' → 'nono'. Characters whose fold would change the length stay lower-cased
 * or as they are.
 */
const cache = new Map<number, number>();

function foldCode(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  const hit = cache.get(code);
  if (hit !== undefined) return hit;
  const ch = String.fromCharCode(code);
  const lower = ch.toLowerCase();
  let result = lower.length === 1 ? lower.charCodeAt(0) : code;
  const base = String.fromCharCode(result)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  if (base.length === 1) result = base.charCodeAt(0);
  // Final sigma: whole-string lower-casing writes 'ς' where a lone 'Σ' gives 'σ'; both fold to 'σ'.
  if (result === 0x3c2) result = 0x3c3;
  cache.set(code, result);
  return result;
}

/** `lower` with each non-ASCII code unit replaced by `fold` of it (ASCII runs copied in slices, no regex callback per character). */
export function mapNonAscii(lower: string, fold: (code: number) => string): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k);
    if (c < 128) continue;
    out += lower.slice(from, k) + fold(c);
    from = k + 1;
  }
  return from === 0 ? lower : out + lower.slice(from);
}

const foldChar = (code: number) => String.fromCharCode(foldCode(code));

export function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    // Usually only a few accented letters: fold just those, on the lower-cased text.
    return mapNonAscii(lower, foldChar);
  }
  // A character whose lower case is longer ("İ"): fold code unit by code unit to keep positions.
  const codes = new Uint16Array(text.length);
  for (let k = 0; k < text.length; k++) codes[k] = foldCode(text.charCodeAt(k));
  let out = '';
  const CHUNK = 8192;
  for (let k = 0; k < codes.length; k += CHUNK) out += String.fromCharCode(...codes.subarray(k, k + CHUNK));
  return out;
}

/** Folds a short token, with combining marks removed even when the text used decomposed accents. */
export function foldToken(token: string): string {
  return fold(token).replace(/\p{M}+/gu, '');
}
