/** Spanish or English, for picking the prompt language. */
export type PromptLanguage = 'es' | 'en';

const ES_WORDS = new Set(
  'el la los las de del que y en un una es por para con no se su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde desde todo nos durante todos les ni otros ese eso ante ellos esto antes algunos qué unos yo otro otras otra él esa estos mucho nada muchos cual poco ella estas algunas algo cómo cuál cuánto dónde puedo puede tiene son está están fue ser'.split(
    ' ',
  ),
);
const EN_WORDS = new Set(
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by but not what all were we when your can said there an each which she do how their if will up other about out many then them these so some her would make like him into time has two more could my than first been who its now did get may does should which where why'.split(
    ' ',
  ),
);

/**
 * Detects Spanish or English from function words and Spanish-only marks (ñ, ¿, ¡, accented vowels).
 * Ties and texts with no signal fall back to `fallback` (English by default).
 */
export function detectLanguage(text: string, fallback: PromptLanguage = 'en'): PromptLanguage {
  const tokens = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let es = (text.match(/[ñ¿¡]/giu) ?? []).length * 2 + (text.match(/[áéíóú]/giu) ?? []).length * 0.5;
  let en = 0;
  for (const t of tokens) {
    if (ES_WORDS.has(t)) es += 1;
    if (EN_WORDS.has(t)) en += 1;
  }
  if (es === en) return fallback;
  return es > en ? 'es' : 'en';
}

/** The prompt language for a sample: a fixed configured language wins, then the sample's own, then detection. */
export function promptLanguage(
  configured: 'auto' | PromptLanguage,
  sample: { language?: PromptLanguage; question: string; answer: string },
): PromptLanguage {
  if (configured !== 'auto') return configured;
  if (sample.language === 'es' || sample.language === 'en') return sample.language;
  return detectLanguage(`${sample.question}\n${sample.answer}`);
}

/** A sample's language as ragwatch decided it: recorded on every score and in the reports. */
export interface SampleLanguage {
  /** ISO 639-1 (`fr`), ISO 639-3 where a language has no two-letter code, or `und` when undetermined. */
  code: string;
  /** Its English name (`French`), or `undetermined`. */
  name: string;
  /**
   * `configured`: `metrics.language` fixed it; `sample`: the sample carried it (golden items); `detected`: the
   * detector found it; `undetermined`: too short or too ambiguous to tell, scored with the fallback (English).
   */
  source: 'configured' | 'sample' | 'detected' | 'undetermined';
}

/** A language other than Spanish and English that the English prompts name and require the outputs in. */
export interface NamedLanguage {
  code: string;
  name: string;
}

/** What a sample's prompts are: the instructions' language, and the language they require when it differs. */
export interface LanguageDecision {
  prompt: PromptLanguage;
  named?: NamedLanguage;
  language: SampleLanguage;
}

const KNOWN: Record<string, SampleLanguage> = {
  es: { code: 'es', name: 'Spanish', source: 'configured' },
  en: { code: 'en', name: 'English', source: 'configured' },
};

/**
 * The sample's language and its prompts: a fixed `metrics.language` wins, then the sample's own (golden items),
 * then detection on the question and the answer (language-detect.ts). Spanish and English get their native
 * prompts; any other language gets the English ones naming it; an undetermined one gets English and says so.
 */
export function decideLanguage(
  configured: 'auto' | PromptLanguage,
  sample: { language?: PromptLanguage; question: string; answer: string },
  detect: (text: string) => { code: string; name: string } | undefined,
): LanguageDecision {
  if (configured !== 'auto') return { prompt: configured, language: { ...KNOWN[configured]!, source: 'configured' } };
  if (sample.language === 'es' || sample.language === 'en')
    return { prompt: sample.language, language: { ...KNOWN[sample.language]!, source: 'sample' } };
  const found = detect(`${sample.question}\n${sample.answer}`);
  if (found === undefined)
    return { prompt: 'en', language: { code: 'und', name: 'undetermined', source: 'undetermined' } };
  const language: SampleLanguage = { ...found, source: 'detected' };
  if (found.code === 'es' || found.code === 'en') return { prompt: found.code, language };
  return { prompt: 'en', named: { code: found.code, name: found.name }, language };
}
