/**
 * Offline language detection for the prompts: franc (trigram profiles shipped in the package, no model download),
 * limited to widely written languages, with ragwatch's Spanish/English word counts for what trigrams miss:
 * - fewer than {@link MIN_LETTERS} letters ("¿Horario? De 9 a 18 h."): trigrams are noise there, so only the
 *   Spanish/English signal decides, and no signal means undetermined;
 * - a short English or Spanish text franc scores near another language ("How do I change my direct debit?" reads
 *   as German to trigrams alone): when the word counts say English or Spanish and franc rates that language
 *   within {@link CLOSE} of its best, the word counts win. Mixed ES/EN text goes to whichever dominates.
 */
import { francAll } from 'franc';
import { detectLanguage } from './language.js';

const MIN_LETTERS = 25;
const CLOSE = 0.85;

/** ISO 639-3 (franc) → ISO 639-1 and English name; the only languages franc is asked to choose among. */
const LANGUAGES: Record<string, [string, string]> = {
  spa: ['es', 'Spanish'],
  eng: ['en', 'English'],
  fra: ['fr', 'French'],
  deu: ['de', 'German'],
  por: ['pt', 'Portuguese'],
  ita: ['it', 'Italian'],
  cat: ['ca', 'Catalan'],
  nld: ['nl', 'Dutch'],
  pol: ['pl', 'Polish'],
  ron: ['ro', 'Romanian'],
  swe: ['sv', 'Swedish'],
  dan: ['da', 'Danish'],
  nob: ['nb', 'Norwegian Bokmål'],
  fin: ['fi', 'Finnish'],
  ces: ['cs', 'Czech'],
  slk: ['sk', 'Slovak'],
  hun: ['hu', 'Hungarian'],
  ell: ['el', 'Greek'],
  tur: ['tr', 'Turkish'],
  rus: ['ru', 'Russian'],
  ukr: ['uk', 'Ukrainian'],
  bul: ['bg', 'Bulgarian'],
  hrv: ['hr', 'Croatian'],
  slv: ['sl', 'Slovenian'],
  lit: ['lt', 'Lithuanian'],
  lav: ['lv', 'Latvian'],
  ekk: ['et', 'Estonian'],
  eus: ['eu', 'Basque'],
  arb: ['ar', 'Arabic'],
  heb: ['he', 'Hebrew'],
  hin: ['hi', 'Hindi'],
  cmn: ['zh', 'Chinese'],
  jpn: ['ja', 'Japanese'],
  kor: ['ko', 'Korean'],
  vie: ['vi', 'Vietnamese'],
  ind: ['id', 'Indonesian'],
  tha: ['th', 'Thai'],
};
const ONLY = Object.keys(LANGUAGES);

/** The languages the detector can name, as ISO 639-1 codes (for `metrics.allowedLanguages` and the docs). */
export const DETECTABLE_LANGUAGES: readonly string[] = Object.values(LANGUAGES).map(([code]) => code);

/** The text's language, or undefined when it cannot be told. */
export function detectSampleLanguage(text: string): { code: string; name: string } | undefined {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const words = wordSignal(text);
  if (letters < MIN_LETTERS) return words;
  const ranked = francAll(text, { only: ONLY, minLength: 10 });
  const [best, score] = ranked[0] ?? ['und', 0];
  if (best === 'und') return words;
  if (words && words.code !== LANGUAGES[best]?.[0]) {
    const iso3 = words.code === 'es' ? 'spa' : 'eng';
    const rival = ranked.find(([lang]) => lang === iso3);
    if (rival && rival[1] >= CLOSE * score) return words;
  }
  const known = LANGUAGES[best];
  return known ? { code: known[0], name: known[1] } : undefined;
}

/** Spanish or English when their function words and marks say so, else undefined. */
function wordSignal(text: string): { code: string; name: string } | undefined {
  const es = detectLanguage(text, 'es');
  const en = detectLanguage(text, 'en');
  // A tie falls back to the argument: only an answer both calls agree on is a signal.
  if (es !== en) return undefined;
  return es === 'es' ? { code: 'es', name: 'Spanish' } : { code: 'en', name: 'English' };
}
