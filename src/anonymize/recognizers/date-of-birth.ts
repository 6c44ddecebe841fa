import type { Candidate, Recognizer } from '../types.js';
import { hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';
import { collapseSpaces } from '../text/chars.js';
import { keywordsOf } from '../text/keywords.js';
import { addWindow, matchInWindowList, windowsAfter } from '../text/windows.js';
import { execAll } from '../text/exec-all.js';

const ES_MONTH =
  '(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)';
const EN_MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)';
/** Short month names of both languages, as in "15-ago-1966", "8 May 1958", "19-Oct-1936". */
const SHORT_MONTH = '(?:ene|feb|mar|abr|may|jun|jul|ago|sep|sept|set|oct|nov|dic|jan|apr|aug|dec)';
const DATE_FORMS = [
  '\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})',
  '\\d{4}[/.-]\\d{1,2}[/.-]\\d{1,2}',
  `\\d{1,2}\\s+de\\s+${ES_MONTH}\\s+(?:de\\s+|del\\s+)?\\d{4}`,
  `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${EN_MONTH}\\.?,?\\s+\\d{4}`,
  `${EN_MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}`,
  `\\d{1,2}[-/ ](?:${SHORT_MONTH}|${ES_MONTH}|${EN_MONTH})\\.?[-/ ]\\d{4}`,
]
  .map((p) => `(?:${p})`)
  .join('|');
const DATE_BOUNDS = (flags: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}/.-])(?:${DATE_FORMS})(?![\\p{L}\\p{N}]|[/.-]\\d|:\\d)`, flags);
const DATE = DATE_BOUNDS('giu');

const MONTHS: Record<string, number> = {};
'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'
  .split(' ')
  .forEach((m, i) => (MONTHS[m] = MONTHS[m.slice(0, 3)] = i + 1));
'january february march april may june july august september october november december'
  .split(' ')
  .forEach((m, i) => (MONTHS[m] = MONTHS[m.slice(0, 3)] = i + 1));
Object.assign(MONTHS, { setiembre: 9, set: 9, sept: 9 });

const iso = (y: number, m: number, d: number) =>
  m >= 1 && m <= 12 && d >= 1 && d <= 31
    ? `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
    : undefined;
const fullYear = (y: string) => (y.length === 4 ? Number(y) : Number(y) > 30 ? 1900 + Number(y) : 2000 + Number(y));

/**
 * A written date as an ISO date (the placeholder key: "28/08/1942", "28th August 1942" and "28-ago-1942" are one
 * value), and the month-first reading when a numeric date reads both ways ("06/05/1978").
 */
export function isoDate(raw: string): { iso: string; alt?: string } | undefined {
  const s = raw.toLowerCase();
  let m = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(s);
  if (m) {
    const v = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    return v ? { iso: v } : undefined;
  }
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})$/.exec(s);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), fullYear(m[3]!)];
    const dayFirst = iso(y, b, a);
    const monthFirst = iso(y, a, b);
    if (dayFirst && monthFirst && dayFirst !== monthFirst) return { iso: dayFirst, alt: monthFirst };
    const v = dayFirst ?? monthFirst;
    return v ? { iso: v } : undefined;
  }
  const day = /(?<!\d)(\d{1,2})(?!\d)/.exec(s);
  const year = /(\d{4})/.exec(s);
  const month = /\p{L}{3,}/gu;
  let mm: RegExpExecArray | null;
  let monthNumber: number | undefined;
  while ((mm = month.exec(s)) !== null && monthNumber === undefined) monthNumber = MONTHS[mm[0]];
  if (!day || !year || monthNumber === undefined) return undefined;
  const v = iso(Number(year[1]), monthNumber, Number(day[1]));
  return v ? { iso: v } : undefined;
}

/** Every date of a text (any form above), with its ISO key: where a date of birth seen elsewhere is repeated. */
export function datesIn(
  text: string,
  years?: readonly string[],
): Array<{ start: number; end: number; iso: string; alt?: string }> {
  const out: Array<{ start: number; end: number; iso: string; alt?: string }> = [];
  // Given the years to look for, only around them: a date's year is its last or first part.
  const matches = years === undefined ? execAll(DATE, text) : matchInWindowList(text, yearWindows(text, years), DATE);
  for (const m of matches) {
    const key = isoDate(m[0]);
    if (key) out.push({ start: m.index, end: m.index + m[0].length, ...key });
  }
  return out;
}

function yearWindows(text: string, years: readonly string[]): number[] {
  const hits: number[] = [];
  for (const y of years) for (let at = text.indexOf(y); at !== -1; at = text.indexOf(y, at + 4)) hits.push(at);
  hits.sort((a, b) => a - b);
  const windows: number[] = [];
  for (const at of hits) addWindow(windows, Math.max(0, at - 32), Math.min(text.length, at + 20));
  return windows;
}

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
      if (!hasCueBefore(text, m.index, BIRTH_CUE, window) || hasCueBefore(text, m.index, ORGANISATION_BIRTH, window))
        continue;
      const key = isoDate(m[0]);
      const candidate: Candidate = {
        type: 'DATE_OF_BIRTH',
        start: m.index,
        end: m.index + m[0].length,
        score: 0.9,
        normalized: key?.iso ?? collapseSpaces(m[0].toLowerCase()),
      };
      if (key?.alt !== undefined) {
        const alt = key.alt;
        candidate.alternatives = () => [alt];
      }
      out.push(candidate);
    }
    return out;
  },
};

/**
 * A date of birth found next to its cue in one field is the same personal value wherever the trace repeats it,
 * in any format and without a cue ("DOB: 28/08/1942" in a record, "28th August 1942" in the answer).
 */
export function repeatBirthDates(texts: string[], found: Candidate[][]): Candidate[][] {
  const births = new Set<string>();
  for (const cands of found) for (const c of cands) if (c.type === 'DATE_OF_BIRTH') births.add(c.normalized);
  if (births.size === 0) return found;
  const years = [...new Set([...births].map((b) => b.slice(0, 4)).filter((y) => /^\d{4}$/.test(y)))];
  return texts.map((text, f) => {
    const own = found[f]!;
    const extra: Candidate[] = [];
    for (const d of datesIn(text, years)) {
      const key = births.has(d.iso) ? d.iso : d.alt !== undefined && births.has(d.alt) ? d.alt : undefined;
      if (key === undefined || own.some((c) => c.start < d.end && d.start < c.end)) continue;
      extra.push({ type: 'DATE_OF_BIRTH', start: d.start, end: d.end, score: 0.9, normalized: key });
    }
    return extra.length === 0 ? own : [...own, ...extra].sort((a, b) => a.start - b.start);
  });
}
