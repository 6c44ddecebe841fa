import { getCountrySpecifications, isValidIBAN } from 'ibantools';
import type { Candidate, Recognizer } from '../types.js';
import { boost, hasCueBefore } from '../text/context.js';
import { isWordCode, withoutSpacesAndDashes } from '../text/chars.js';
import { factsOf } from '../text/facts.js';

// Country code, check digits, then up to 30 characters with optional single spaces or dashes between them.
// The match may run into the next word; it is cut at the country's IBAN length below.
const PATTERN = /(?<![\p{L}\p{N}])([A-Za-z]{2}\d{2})((?:[ -]?[A-Za-z0-9]){10,32})/uy;
const CUE = /\b(?:iban|cuenta|account|domiciliaci|transferencia|transfer|bank|banco|ccc)\b[^\n]{0,30}$/;
const specs = getCountrySpecifications();
const isAsciiAlnum = (c: number) => (c >= 48 && c <= 57) || ((c | 0x20) >= 97 && (c | 0x20) <= 122);

/** IBANs of every registry country, validated by ibantools (mod-97 and national check digits). */
export const ibanRecognizer: Recognizer = {
  name: 'iban',
  types: ['IBAN'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    // Tried only where two letters and two digits start (sticky), never past an IBAN already taken.
    let taken = 0;
    for (const start of facts.ibanStarts) {
      if (start < taken) continue;
      PATTERN.lastIndex = start;
      const m = PATTERN.exec(text);
      if (m === null) continue;
      const country = m[1]!.slice(0, 2).toUpperCase();
      const length = specs[country]?.chars;
      if (!length) continue;
      let chars = 0;
      let end = start;
      while (end < text.length && chars < length) {
        if (isAsciiAlnum(text.charCodeAt(end))) chars++;
        end++;
      }
      if (chars < length || (end < text.length && isWordCode(text.charCodeAt(end)))) continue;
      const compact = withoutSpacesAndDashes(text.slice(start, end)).toUpperCase();
      if (!isValidIBAN(compact)) continue;
      const score = hasCueBefore(text, start, CUE) ? boost(0.95, 0.05) : 0.95;
      out.push({ type: 'IBAN', start, end, score, normalized: compact });
      taken = end;
    }
    return out;
  },
};
