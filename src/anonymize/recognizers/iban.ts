import { getCountrySpecifications, isValidIBAN } from 'ibantools';
import type { Candidate, Recognizer } from '../types.js';
import { boost, hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';

// Country code, check digits, then up to 30 characters with optional single spaces or dashes between them.
// The match may run into the next word; it is cut at the country's IBAN length below.
const PATTERN = /(?<![\p{L}\p{N}])([A-Za-z]{2}\d{2})((?:[ -]?[A-Za-z0-9]){10,32})/uy;
const CUE = /\b(?:iban|cuenta|account|domiciliaci|transferencia|transfer|bank|banco|ccc)\b[^\n]{0,30}$/;
const specs = getCountrySpecifications();

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
        if (/[A-Za-z0-9]/.test(text[end]!)) chars++;
        end++;
      }
      if (chars < length || /[\p{L}\p{N}]/u.test(text[end] ?? '')) continue;
      const compact = text.slice(start, end).replace(/[ -]/g, '').toUpperCase();
      if (!isValidIBAN(compact)) continue;
      const score = hasCueBefore(text, start, CUE) ? boost(0.95, 0.05) : 0.95;
      out.push({ type: 'IBAN', start, end, score, normalized: compact });
      taken = end;
    }
    return out;
  },
};
