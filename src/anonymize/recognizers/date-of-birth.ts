import type { Candidate, Recognizer } from '../types.js';
import { hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';
import { collapseSpaces } from '../text/chars.js';
import { keywordsOf } from '../text/keywords.js';
import { matchInWindowList, windowsAfter } from '../text/windows.js';

const ES_MONTH = '(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)';
const EN_MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)';
const DATE = new RegExp(
  [
    '\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})',
    '\\d{4}[/.-]\\d{1,2}[/.-]\\d{1,2}',
    `\\d{1,2}\\s+de\\s+${ES_MONTH}\\s+(?:de\\s+|del\\s+)?\\d{4}`,
    `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${EN_MONTH}\\.?,?\\s+\\d{4}`,
    `${EN_MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}`,
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '(?<![\\p{L}\\p{N}/.-])(?:')
    .concat(')(?![\\p{L}\\p{N}]|[/.-]\\d)'),
  'giu',
);
// The cue must be close and in the same sentence: "fecha de nacimiento: 03/05/1985", "nací el 3 de mayo de 1985", "born on …".
const BIRTH_CUE =
  /\b(?:nacimiento|naci|nacio|nacido|nacida|nac|f\.\s?nac|fnac|born|birth|birthdate|dob|d\.o\.b|birthday|cumpleanos|natalicio)\b[^.!?\n]{0,30}$|\bf\.?\s?n\.?\s*:?\s*$|\b(?:f\.?\s?)?nac\.\s*:?\s*$/;

/** The birthday of a company or a shop is not personal data ("cumpleaños de la empresa: 12/04/1987", "our store's birthday"). */
const ORGANISATION_BIRTH =
  /\b(?:de la|del|of the|our|nuestra|nuestro)\s+(?:empresa|compania|company|tienda|store|shop|marca|brand|negocio|business|sociedad|fundacion|foundation|organizacion|organisation|organization|asociacion|club|app|web)\b[^.!?\n]{0,20}$|\b(?:company|store|shop|brand)'?s?\s+birthday\b[^.!?\n]{0,20}$/;

/** A date written next to a birth cue. Other dates (events, deadlines, invoices) stay for the judge. */
export const dateOfBirthRecognizer: Recognizer = {
  name: 'date-of-birth',
  types: ['DATE_OF_BIRTH'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    // Every date form below has a run of at least four digits ("1/2/85", "1985").
    if (facts.maxDigitRun < 4) return out;
    let previousEnd = 0;
    for (const m of matchInWindowList(text, windowsAfter(text, keywordsOf(text, facts).birth, 80), DATE)) {
      // A cue names the first date after it: in "nacimiento: 03/05/1985, alta: 12/04/2024" the second date is an event.
      const window = Math.min(50, m.index - previousEnd);
      previousEnd = m.index + m[0].length;
      if (!hasCueBefore(text, m.index, BIRTH_CUE, window) || hasCueBefore(text, m.index, ORGANISATION_BIRTH, window)) continue;
      out.push({ type: 'DATE_OF_BIRTH', start: m.index, end: m.index + m[0].length, score: 0.9, normalized: collapseSpaces(m[0].toLowerCase()) });
    }
    return out;
  },
};
