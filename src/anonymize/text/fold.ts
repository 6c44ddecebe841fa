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
  const base = String.fromCharCode(result).normalize('NFD').replace(/\p{M}+/gu, '');
  if (base.length === 1) result = base.charCodeAt(0);
  cache.set(code, result);
  return result;
}

export function fold(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (c >= 65 && c <= 90)) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  const codes = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = foldCode(text.charCodeAt(i));
  let out = '';
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) out += String.fromCharCode(...codes.slice(i, i + CHUNK));
  return out;
}

/** Folds a short token, with combining marks removed even when the text used decomposed accents. */
export function foldToken(token: string): string {
  return fold(token).replace(/\p{M}+/gu, '');
}
