import { isDigitCode, isWordCode, withoutSpacesAndDashes } from '../text/chars.js';
import { factsOf } from '../text/facts.js';
import { matchInWindowList, runWindows } from '../text/windows.js';
import type { Candidate, Recognizer } from '../types.js';
import { boost, hasCueBefore } from '../text/context.js';
import { insideIbanShape } from '../text/iban-shape.js';
import { luhnValid, plausibleCardNumber } from '../validators/luhn.js';

// 13 to 19 digits, optionally grouped by single spaces or dashes.
const PATTERN = /(?<![\p{L}\p{N}.,-])\d(?:[ -]?\d){12,18}/gu;
const CUE =
  /\b(?:tarjeta|card|visa|mastercard|master card|amex|american express|maestro|credito|debito|credit|debit|pan|cc)\b[^\n]{0,30}$/;

/** Payment card numbers: Luhn-valid and with a known issuer prefix and length. */
export const creditCardRecognizer: Recognizer = {
  name: 'credit-card',
  types: ['CREDIT_CARD'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    if (facts.maxDigitRun < 13) return out;
    for (const m of matchInWindowList(text, runWindows(text, facts.digitRuns, 13, 1, 2), PATTERN)) {
      const start = m.index;
      if (insideIbanShape(text, start, facts.ibanStarts)) continue;
      const end = longestValidEnd(text, start, m[0]);
      if (end === -1) continue;
      const digits = withoutSpacesAndDashes(text.slice(start, end));
      const score = hasCueBefore(text, start, CUE) ? boost(0.9, 0.1) : 0.9;
      out.push({ type: 'CREDIT_CARD', start, end, score, normalized: digits });
    }
    return out;
  },
};

/** The match may have swallowed a following number ("4111 1111 1111 1111 123"): try each digit-group end, longest first. */
function longestValidEnd(text: string, start: number, match: string): number {
  for (let len = match.length; len > 0; len--) {
    const last = match[len - 1]!;
    if (last < '0' || last > '9') continue;
    const at = start + len;
    if (at < text.length) {
      const next = text.charCodeAt(at);
      if (isWordCode(next) || ((next === 46 || next === 44) && isDigitCode(text.charCodeAt(at + 1)))) continue;
    }
    const digits = withoutSpacesAndDashes(match.slice(0, len));
    if (digits.length < 13) break;
    if (luhnValid(digits) && plausibleCardNumber(digits)) return start + len;
  }
  return -1;
}
