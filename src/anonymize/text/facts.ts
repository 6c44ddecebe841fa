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
  /** Two ASCII letters followed by two digits somewhere ("ES91", "GB29"): the start an IBAN needs. */
  ibanStart: boolean;
  at: boolean;
  colons: number;
  /** At least one upper-case letter (of any script). */
  upper: boolean;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

export function factsOf(text: string): TextFacts {
  let digits = 0;
  let run = 0;
  let maxDigitRun = 0;
  let word = 0;
  let maxWordRun = 0;
  let ibanStart = false;
  let at = false;
  let colons = 0;
  let upper = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      digits++;
      run++;
      if (run > maxDigitRun) maxDigitRun = run;
      word++;
      if (!ibanStart && i >= 3 && isDigit(text.charCodeAt(i - 1)) && isAsciiLetter(text.charCodeAt(i - 2)) && isAsciiLetter(text.charCodeAt(i - 3))) ibanStart = true;
    } else {
      // Number punctuation keeps the digit run going; anything else ends it.
      if (!(c === 32 || c === 9 || c === 46 || c === 45 || c === 40 || c === 41 || c === 43 || c === 47)) run = 0;
      if (isAsciiLetter(c) || c === 95 || c === 45) {
        word++;
        if (!upper && c <= 90 && c >= 65) upper = true;
      } else {
        word = 0;
        if (c === 64) at = true;
        else if (c === 58) colons++;
        else if (c >= 128 && !upper && text[i] !== text[i]!.toLowerCase()) upper = true;
      }
      if (word > maxWordRun) maxWordRun = word;
    }
    if (word > maxWordRun) maxWordRun = word;
  }
  return { digits, maxDigitRun, maxWordRun, ibanStart, at, colons, upper };
}
