/**
 * What one pass over a text's code units tells about it, so that recognizers whose pattern cannot match skip the
 * text without running a regex: no '@' means no email, no run of 7 digits means no phone, and so on. Every fact is
 * a necessary condition of the recognizer it gates, never a heuristic that could hide an entity.
 */
export interface TextFacts {
  /** Number of ASCII digits. */
  digits: number;
  /**
   * Most digits in one run of digits and number punctuation (space, tab, `.`, `-`, `(`, `)`, `+`, `/`): the longest
   * phone, card, DNI or IPv4 the text could hold. "Tel. +34 612 34 56 78" has a run of 11.
   */
  maxDigitRun: number;
  /** Longest run of `[A-Za-z0-9_-]`: API keys and tokens are long runs. */
  maxWordRun: number;
  /** The runs of `[A-Za-z0-9_-]` of at least {@link MIN_KEY_RUN} characters, as [start, end, …]: where vendor keys can be. */
  keyRuns: number[];
  /** Where two ASCII letters are followed by two digits ("ES91", "GB29"): the only places an IBAN can start. */
  ibanStarts: number[];
  /**
   * Runs of digits and number punctuation holding at least {@link MIN_RUN_DIGITS} digits, as [start, end, digits, dots, …]:
   * every phone, card, DNI, NIE number, IPv4 address and postcode lies inside one (the NIE letters right next to it).
   */
  digitRuns: number[];
  at: boolean;
  colons: number;
  /** At least one upper-case letter (of any script). */
  upper: boolean;
  /** "::" or a hex digit, a colon and a hex digit: what an IPv6 address needs ("Cliente: Hola" has neither). */
  hexColon: boolean;
  /** Keyword hits shared by several recognizers, filled on first use (see keywords.ts). */
  keywords?: KeywordHits;
}

/** Word-start keywords of three recognizers, found in one scan (keywords.ts): each list is a cheap trigger. */
export interface KeywordHits {
  /** Starts of Spanish street types ("calle", "C/", "Avda.", "Plaça"): address. */
  street: number[];
  /** Starts of secret keys ("password", "contraseña", "PIN", "api_key"): secret. */
  secretKey: number[];
  /** Birth cues as [start, end, start, end, …] ("nacimiento", "born", "F. nac."): date of birth. */
  birth: number[];
}

const DIGIT = 1;
/** Number punctuation: keeps a digit run going. */
const NUM_PUNCT = 2;
/** `[A-Za-z0-9_-]`: continues a key-like run. */
const KEY_CHAR = 4;
const UPPER = 8;
const LETTER = 16;

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 48 && c <= 57) ASCII[c] = DIGIT | KEY_CHAR;
  else if (c >= 65 && c <= 90) ASCII[c] = UPPER | LETTER | KEY_CHAR;
  else if (c >= 97 && c <= 122) ASCII[c] = LETTER | KEY_CHAR;
  else if (c === 95) ASCII[c] = KEY_CHAR;
  else if (c === 45) ASCII[c] = KEY_CHAR | NUM_PUNCT;
  else if (c === 32 || c === 9 || c === 46 || c === 40 || c === 41 || c === 43 || c === 47) ASCII[c] = NUM_PUNCT;
}

/** Digits a run needs to be listed in `digitRuns`: the fewest an IPv4 address has. */
export const MIN_RUN_DIGITS = 4;
/** Characters a key-character run needs to be listed in `keyRuns`: the shortest vendor key has 15 ("xoxb-" + 10). */
export const MIN_KEY_RUN = 11;

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

export function factsOf(text: string): TextFacts {
  let digits = 0;
  let run = 0;
  let maxDigitRun = 0;
  let word = 0;
  let maxWordRun = 0;
  const ibanStarts: number[] = [];
  const digitRuns: number[] = [];
  let runStart = -1;
  let dots = 0;
  const keyRuns: number[] = [];
  let wordStart = 0;
  let at = false;
  let colons = 0;
  let upper = false;
  let hexColon = false;
  // Classes of the two previous characters, for the IBAN start (letter, letter, digit, digit).
  let prev1 = 0;
  let prev2 = 0;
  let prev3 = 0;
  const n = text.length;
  let prevCode = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Most characters are lower-case ASCII letters outside any digit run: only the key-character run grows.
    if (c >= 97 && c <= 122 && runStart < 0 && prevCode !== 58) {
      if (word === 0) wordStart = i;
      if (++word > maxWordRun) maxWordRun = word;
      prev3 = prev2;
      prev2 = prev1;
      prev1 = LETTER | KEY_CHAR;
      prevCode = c;
      continue;
    }
    let k = 0;
    if (c < 128) {
      k = ASCII[c]!;
    } else if (!upper && text[i] !== text[i]!.toLowerCase()) {
      upper = true;
    }
    if (k & (DIGIT | NUM_PUNCT)) {
      if (runStart < 0) {
        runStart = i;
        dots = 0;
      }
      if (c === 46) dots++;
      if (k & DIGIT) {
        digits++;
        if (++run > maxDigitRun) maxDigitRun = run;
        if (prev1 & DIGIT && prev2 & LETTER && prev3 & LETTER) ibanStarts.push(i - 3);
      }
    } else if (runStart >= 0) {
      if (run >= MIN_RUN_DIGITS) digitRuns.push(runStart, i, run, dots);
      run = 0;
      runStart = -1;
    }
    if (k & KEY_CHAR) {
      if (word === 0) wordStart = i;
      if (++word > maxWordRun) maxWordRun = word;
    } else {
      if (word >= MIN_KEY_RUN) keyRuns.push(wordStart, i);
      word = 0;
      if (c === 64) at = true;
      else if (c === 58) colons++;
    }
    if (k & UPPER) upper = true;
    if (!hexColon && prevCode === 58 && (c === 58 || (isHex(c) && i >= 2 && isHex(text.charCodeAt(i - 2)))))
      hexColon = true;
    prev3 = prev2;
    prev2 = prev1;
    prev1 = k;
    prevCode = c;
  }
  if (runStart >= 0 && run >= MIN_RUN_DIGITS) digitRuns.push(runStart, n, run, dots);
  if (word >= MIN_KEY_RUN) keyRuns.push(wordStart, n);
  return { digits, maxDigitRun, maxWordRun, keyRuns, ibanStarts, digitRuns, at, colons, upper, hexColon };
}
