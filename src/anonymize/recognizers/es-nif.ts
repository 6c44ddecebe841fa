import { factsOf } from '../text/facts.js';
import { matchInWindowList, runWindows } from '../text/windows.js';
import type { Candidate, Recognizer } from '../types.js';
import { boost, hasCueBefore } from '../text/context.js';
import { validDni } from '../validators/spanish-id.js';

// 12345678Z, 12345678-Z, 12.345.678-Z, 12 345 678 Z; the letter may be lower case in chats.
// A Spanish VAT number is the NIF after "ES" (ES12345678Z): the same value, the same key.
const PATTERN =
  /(?<![\p{L}\p{N}.-])(?:ES[ -]?)?(\d{2}\.\d{3}\.\d{3}|\d{8}|\d{2} \d{3} \d{3})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu;
const CUE = /\b(?:dni|d\.n\.i\.?|nif|n\.i\.f\.?|documento|identidad|id card|national id)\b[^\n]{0,25}$/;

/** Spanish DNI/NIF of a person: eight digits and the mod-23 control letter. */
export const esNifRecognizer: Recognizer = {
  name: 'es-nif',
  types: ['ES_NIF'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    if (facts.maxDigitRun < 8) return out;
    // The control letter follows the run of digits (a space or dash before it belongs to the run).
    const letterAfter = (start: number, end: number) =>
      end < text.length && (text.charCodeAt(end) | 0x20) >= 97 && (text.charCodeAt(end) | 0x20) <= 122;
    for (const m of matchInWindowList(text, runWindows(text, facts.digitRuns, 8, 4, 2, letterAfter), PATTERN)) {
      const compact = `${m[1]!.replace(/[ .]/g, '')}${m[2]!.toUpperCase()}`;
      if (!validDni(compact)) continue;
      const start = m.index;
      const score = hasCueBefore(text, start, CUE) ? boost(0.9, 0.1) : 0.9;
      out.push({ type: 'ES_NIF', start, end: start + m[0].length, score, normalized: compact });
    }
    return out;
  },
};
