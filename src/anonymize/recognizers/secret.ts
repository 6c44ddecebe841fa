import { execAll } from '../text/exec-all.js';
import { factsOf } from '../text/facts.js';
import { keywordsOf } from '../text/keywords.js';
import { matchAtStarts } from '../text/windows.js';
import type { Candidate, Recognizer } from '../types.js';
import { base64Keys, valuesAfterKeywords } from './secret-values.js';

/**
 * Credentials recognisable by their vendor prefix and shape alone, written in key characters only (`[A-Za-z0-9_-]`):
 * such a key is a whole run of key characters, so the pattern is tried (sticky) at the start of each long run
 * (facts.ts) and must end where the run ends.
 */
const VENDOR_KEY = new RegExp(
  [
    '(?:sk|pk)-(?:lf-|proj-|ant-|live-|test-|or-v1-)?[A-Za-z0-9_-]{16,}',
    '(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}',
    '(?:AKIA|ASIA)[0-9A-Z]{16}',
    'gh[pousr]_[A-Za-z0-9]{30,}',
    'github_pat_[A-Za-z0-9_]{40,}',
    'glpat-[A-Za-z0-9_-]{20,}',
    'xox[abposr]-[A-Za-z0-9-]{10,}',
    'AIza[0-9A-Za-z_-]{35}',
    'hf_[A-Za-z0-9]{30,}',
    'npm_[A-Za-z0-9]{36}',
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '(?:')
    .concat(')(?![A-Za-z0-9_-])'),
  'y',
);
/** Credentials whose shape spans dots or lines (SendGrid keys, JWTs, PEM private keys): looked for only when their literal start is in the text. */
const DOTTED_KEY = new RegExp(
  [
    'SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}',
    'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
    '-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[\\s\\S]{0,8000}?-----END [A-Z ]{0,20}PRIVATE KEY-----',
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '(?<![A-Za-z0-9_-])(?:')
    .concat(')(?![A-Za-z0-9_-])'),
  'g',
);
const BEARER = /\b(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{16,})/g;
/** `password: hunter2`, `contraseña es Perro2024!`, `api_key=...`, `PIN 1234`. */
const KEY_VALUE =
  /(?<![\p{L}\p{N}])(password|passwd|pwd|pass|passcode|contrase[ñn]a|clave(?: de acceso)?|pin|secret|secreto|token|api[_ -]?key|apikey|access[_ -]?key|secret[_ -]?key|client[_ -]?secret|auth[_ -]?token|access[_ -]?token|refresh[_ -]?token|private[_ -]?key|c[oó]digo de (?:acceso|seguridad|verificaci[oó]n)|cvv|cvc|cvv2|otp)(?![\p{L}\p{N}])["']?\s*(:|=|->|\bes\b|\bis\b|\bera\b|\bwas\b|\bsería\b)?\s*["'`]?([^\s"'`,;<>]{3,200})/iuy;
const PLACEHOLDER_VALUE = /^(?:\*+|x+|X+|•+|\.+|-+|\[.*\]|<.*>|\{.*\}|null|none|n\/a|undefined|redacted)$/i;
const NOT_A_SECRET = new Set(
  'incorrecta incorrecto incorrect wrong invalid invalida valida valid caducada caducado expired expirado nueva nuevo new old antigua correcta correct required obligatorio obligatoria olvidada forgotten reset segura secure fuerte strong debil weak larga corta long short vacia empty distinta different igual same mismo misma demasiado too muy very the la el una un mi my your su tu que not no'.split(
    ' ',
  ),
);

/** Keys that introduce a value even without ':' ("PIN 1234", "password Hunter22"). */
const NO_SEPARATOR_KEYS = /^(?:password|passwd|passcode|contrase[ñn]a)$/;

/** API keys, tokens, private keys, bearer credentials and values introduced by password/PIN/token keywords. */
export const secretRecognizer: Recognizer = {
  name: 'secret',
  types: ['SECRET'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    const runs = facts.keyRuns;
    for (let r = 0; r < runs.length; r += 2) {
      VENDOR_KEY.lastIndex = runs[r]!;
      const m = VENDOR_KEY.exec(text);
      if (m !== null && m.index + m[0].length === runs[r + 1])
        out.push({ type: 'SECRET', start: m.index, end: runs[r + 1]!, score: 0.95, normalized: m[0] });
    }
    if (text.includes('eyJ') || text.includes('SG.') || text.includes('-----BEGIN')) {
      for (const m of execAll(DOTTED_KEY, text))
        out.push({ type: 'SECRET', start: m.index, end: m.index + m[0].length, score: 0.95, normalized: m[0] });
    }
    for (const m of execAll(BEARER, text)) {
      const value = m[1]!;
      const start = m.index + m[0].length - value.length;
      out.push({ type: 'SECRET', start, end: start + value.length, score: 0.9, normalized: value });
    }
    const keyHits = keywordsOf(text, facts).secretKey;
    for (const m of matchAtStarts(text, keyHits, KEY_VALUE)) {
      const key = m[1]!.toLowerCase();
      const separator = (m[2] ?? '').toLowerCase();
      const value = m[3]!.replace(/[.)\]}]+$/, '');
      if (!acceptValue(key, separator, value)) continue;
      const start = m.index + m[0].length - m[3]!.length;
      out.push({
        type: 'SECRET',
        start,
        end: start + value.length,
        score: separator === '' ? 0.8 : 0.9,
        normalized: value,
      });
    }
    if (keyHits.length > 0) valuesAfterKeywords(text, keyHits, out);
    if (facts.keyRuns.length > 0) base64Keys(text, facts.keyRuns, out);
    return out;
  },
};

function acceptValue(key: string, separator: string, value: string): boolean {
  if (value.length < 3 || PLACEHOLDER_VALUE.test(value) || NOT_A_SECRET.has(value.toLowerCase())) return false;
  const short = /^(?:pin|cvv|cvc|cvv2|otp)$/.test(key);
  if (short) return /^\d{3,8}$/.test(value);
  if (value.length < 4) return false;
  if (separator === '') return NO_SEPARATOR_KEYS.test(key) && /\d/.test(value) && !/[:=]$/.test(value);
  const symbolic = separator === ':' || separator === '=' || separator === '->';
  // After "es"/"is" or with no separator, ordinary words are prose ("la contraseña es incorrecta"): demand a digit, a symbol or mixed case.
  if (!symbolic)
    return /\d/.test(value) || /[^\p{L}]/u.test(value) || (/\p{Lu}/u.test(value.slice(1)) && /\p{Ll}/u.test(value));
  return true;
}
