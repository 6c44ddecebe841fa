import type { KeywordHits, TextFacts } from './facts.js';

/**
 * The word-start keywords of the address, secret and date-of-birth recognizers in one scan of the text instead of
 * one scan each. Each list is a cheap trigger; the recognizer's own pattern decides.
 */
const STREET =
  'calle|c/|cl\\.|aven|avd|av\\.|plaza|pza|paseo|pº|p\\.º|ronda|rda\\.|traves|trav\\.|glorieta|gta\\.|camino|carretera|ctra|carrer|passeig|pla[çc]a|avinguda|r[uú]a |urbaniz|urb\\.|pol[ií]gono|callej|cuesta|bulevar|bv\\.|alameda|pasaje|pje\\.|rambla|calz|jir[oó]n|jr\\.|carrera|cra\\.';
const SECRET_KEY =
  'pass|pwd|contrase|clave|pin|secret|token|api|access|client|auth|refresh|private|c[oó]digo de|cvv|cvc|otp';
const BIRTH = 'nac|fnac|natal|born|birth|dob|d\\.o\\.b|cumplea|f\\.\\s?n';

/**
 * At a word start (`\b`, or after "_" as in "DB_PASSWORD"). Street types come first: "Passeig" is a street, and no
 * secret key can start there. `\b` also fires after accented letters, which only adds hits the patterns reject.
 */
const KEYWORDS = new RegExp(`(?:\\b|_)(?:(${STREET})|(${SECRET_KEY})|(${BIRTH}))`, 'gi');

export function findKeywords(text: string): KeywordHits {
  const hits: KeywordHits = { street: [], secretKey: [], birth: [] };
  KEYWORDS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = KEYWORDS.exec(text)) !== null) {
    const end = m.index + m[0].length;
    if (m[1] !== undefined) hits.street.push(end - m[1].length);
    else if (m[2] !== undefined) hits.secretKey.push(end - m[2].length);
    else hits.birth.push(end - m[3]!.length, end);
  }
  return hits;
}

/** The keyword hits of a text, found once and kept with its facts for the other recognizers. */
export function keywordsOf(text: string, facts: TextFacts): KeywordHits {
  return (facts.keywords ??= findKeywords(text));
}
