import { factsOf } from '../text/facts.js';
import { matchInWindowList, runWindows } from '../text/windows.js';
import type { Candidate, Recognizer } from '../types.js';
import { boost, hasCueBefore } from '../text/context.js';
import { validNie } from '../validators/spanish-id.js';

// X1234567L, X-1234567-L, x 1234567 l
const PATTERN = /(?<![\p{L}\p{N}])([XYZxyz])[ -]?(\d{7})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu;
/** X, Y or Z in either case: what stands right before the run of an NIE's digits. */
const NIE_LETTER = new Set([...'XYZxyz'].map((c) => c.charCodeAt(0)));
const CUE = /\b(?:nie|n\.i\.e\.?|extranjero|residencia|tie|foreigner)\b[^\n]{0,25}$/;

/** Spanish foreigner identity number (NIE): X/Y/Z, seven digits, mod-23 control letter. */
export const esNieRecognizer: Recognizer = {
  name: 'es-nie',
  types: ['ES_NIE'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    if (facts.maxDigitRun < 7) return out;
    // The letter before the digits and its lookbehind character lie just outside the run.
    for (const m of matchInWindowList(
      text,
      runWindows(text, facts.digitRuns, 7, 2, 2, (start) => NIE_LETTER.has(text.charCodeAt(start - 1))),
      PATTERN,
    )) {
      const compact = `${m[1]!.toUpperCase()}${m[2]}${m[3]!.toUpperCase()}`;
      if (!validNie(compact)) continue;
      const start = m.index;
      const score = hasCueBefore(text, start, CUE) ? boost(0.9, 0.1) : 0.9;
      out.push({ type: 'ES_NIE', start, end: start + m[0].length, score, normalized: compact });
    }
    return out;
  },
};
