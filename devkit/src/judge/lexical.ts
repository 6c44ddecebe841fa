/**
 * Lexical helpers the stand-in's rules are built from: words, sentences, labelled prompt sections, support
 * by word coverage, language and evasiveness detection. Everything here is deterministic and explainable:
 * it lets the numbers a metric computes vary sensibly with the text, nothing more.
 */

const STOPWORDS = new Set(
  // English
  (
    'a an and are as at be been being but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so such than that the their them then there these they this those to was we were what when ' +
    'where which who whom why will with would you your yes about also any all more most other some only own same too very just ' +
    'should now over under again further once here both each few s t don doesn didn isn aren wasn weren won wouldn shouldn ' +
    // Spanish
    'el la los las un una unos unas y e o u de del al en con por para sin sobre entre es son fue fueron ser era eran está están ' +
    'estaba estar ha han he hay había se su sus lo le les que qué como cómo cuando cuándo donde dónde quien quién cual cuál cuyo ' +
    'este esta estos estas ese esa esos esas aquel aquella mi mis tu tus nos nuestro nuestra muy más menos ya no sí si pero porque ' +
    'también tan tanto todo toda todos todas otro otra otros otras mismo misma puede pueden desde hasta cada ni me te yo él ella ' +
    'ellos ellas usted ustedes'
  ).split(/\s+/),
);

/** Lowercase without accents (so "información" and "informacion" meet). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Word tokens (letters and digits), folded. */
export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? [];
}

/**
 * A deliberately crude stemmer shared by English and Spanish: a final -s, then a final -e, are dropped, so
 * singular and plural meet ("cliente"/"clientes", "ciudad"/"ciudades", "cache"/"caches").
 */
function stem(word: string): string {
  if (/^\d/.test(word)) return word;
  let w = word;
  if (w.length > 3 && w.endsWith('s')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Folded, lightly stemmed words without stopwords: what a statement is about. */
export function contentWords(text: string): string[] {
  const stopFolded = STOPWORDS_FOLDED;
  return words(text)
    .filter((w) => !stopFolded.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
}

const STOPWORDS_FOLDED = new Set([...STOPWORDS].map(fold));

/** Sentences of a text: split after . ! ? ; and at line breaks; bullet markers and blank pieces dropped. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?;])\s+(?=[\p{Lu}\p{N}¿¡"'(])/u)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((s) => contentWords(s).length > 0);
}

/**
 * Share of the statement's content words found in the reference text (0 when the statement has none).
 * Numbers count like words, so a changed figure lowers the coverage.
 */
export function coverage(statement: string, reference: string): number {
  const wanted = contentWords(statement);
  if (wanted.length === 0) return 0;
  const have = new Set(contentWords(reference));
  let found = 0;
  for (const w of wanted) if (have.has(w)) found += 1;
  return found / wanted.length;
}

/** A statement is supported when at least `threshold` of its content words appear in the reference. */
export function isSupported(statement: string, reference: string, threshold = 0.7): boolean {
  return coverage(statement, reference) >= threshold;
}

/** Jaccard overlap of the content-word sets of two texts. */
export function overlap(a: string, b: string): number {
  const sa = new Set(contentWords(a));
  const sb = new Set(contentWords(b));
  if (sa.size === 0 && sb.size === 0) return 0;
  let both = 0;
  for (const w of sa) if (sb.has(w)) both += 1;
  return both / (sa.size + sb.size - both);
}

/** 'es' or 'en', by stopword counts and Spanish-only marks. */
export function detectLanguage(text: string): 'es' | 'en' {
  const tokens = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  let es = /[ñ¿¡]/.test(text) ? 3 : 0;
  let en = 0;
  for (const t of tokens) {
    if (ES_MARKERS.has(t)) es += 1;
    if (EN_MARKERS.has(t)) en += 1;
  }
  return es > en ? 'es' : 'en';
}

const ES_MARKERS = new Set(
  'el la los las de del que y en un una es por para con no se su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros'.split(
    ' ',
  ),
);
const EN_MARKERS = new Set(
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first been call who its now find long down day did get come made may part'.split(
    ' ',
  ),
);

const NONCOMMITTAL = [
  /\bi (?:do not|don't|dont) know\b/i,
  /\bi(?:'m| am) (?:not sure|unsure|uncertain)\b/i,
  /\b(?:cannot|can't|can not|unable to) (?:answer|say|tell|determine|provide)\b/i,
  /\bno (?:information|data) (?:available|about|on)\b/i,
  /\bnot (?:enough|sufficient) information\b/i,
  /\bno (?:lo )?s[eé]\b/i,
  /\bno estoy segur[oa]\b/i,
  /\bno (?:puedo|podemos|es posible) (?:responder|decir|determinar|confirmar|asegurar)\b/i,
  /\bno (?:tengo|dispongo de|hay) (?:suficiente )?informaci[oó]n\b/i,
  /\bno (?:consta|aparece)\b/i,
];

/** Evasive answers ("I don't know", "no estoy seguro", "cannot answer"). */
export function isNoncommittal(text: string): boolean {
  return NONCOMMITTAL.some((re) => re.test(text));
}

/** The first `n` distinct content words, in order of appearance (original spelling kept). */
export function keywords(text: string, n: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? []) {
    const folded = fold(raw);
    if (STOPWORDS_FOLDED.has(folded) || (folded.length < 2 && !/\d/.test(folded))) continue;
    const key = stem(folded);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(raw);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * A question an answer would answer, built from the answer's first content words: lexically close to the
 * original question when the answer stays on topic, far from it when it drifts.
 */
export function questionFor(answer: string, language: 'es' | 'en' = detectLanguage(answer), variant = 0): string {
  const first = splitSentences(answer)[variant] ?? splitSentences(answer)[0] ?? answer;
  const keys = keywords(first, 8).join(' ');
  if (keys === '') return language === 'es' ? '¿De qué trata esto?' : 'What is this about?';
  return language === 'es' ? `¿Qué se sabe sobre ${keys}?` : `What can you tell me about ${keys}?`;
}

/**
 * Labelled sections of a prompt: `label: value` lines (a value runs until the next label line),
 * `<label>value</label>` tags and `## Label` headings. Labels are folded to lowercase with spaces as `_`;
 * a label seen twice keeps its last value (few-shot examples come before the actual task). Surrounding
 * quotes and triple-backtick fences are removed from values.
 */
export function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(/<([A-Za-z_][\w-]{0,40})>([\s\S]*?)<\/\1>/g)) {
    found.set(labelKey(m[1] ?? ''), cleanValue(m[2] ?? ''));
  }
  const lines = text.split('\n');
  let label: string | undefined;
  let buffer: string[] = [];
  const flush = () => {
    if (label !== undefined) found.set(label, cleanValue(buffer.join('\n')));
  };
  for (const line of lines) {
    const heading = /^#{1,6}\s+(\p{L}[\p{L}\p{N} _-]{0,40}?)\s*:?\s*$/u.exec(line);
    const labelled = /^\s*(\p{L}[\p{L}\p{N} _-]{0,40}?)\s*:\s?(.*)$/u.exec(line);
    if (/^\s*<\/?[A-Za-z_][\w-]{0,40}>/.test(line)) {
      // A tag line ends a labelled section; tagged values were read above.
      flush();
      label = undefined;
      buffer = [];
    } else if (heading) {
      flush();
      label = labelKey(heading[1] ?? '');
      buffer = [];
    } else if (labelled && !/^https?$/i.test(labelled[1] ?? '') && (labelled[1] ?? '').split(/\s+/).length <= 4) {
      flush();
      label = labelKey(labelled[1] ?? '');
      buffer = [labelled[2] ?? ''];
    } else if (label !== undefined) {
      buffer.push(line);
    }
  }
  flush();
  return found;
}

/** The value of the first of `labels` present in the text's sections. */
export function section(text: string, ...labels: string[]): string | undefined {
  const all = sections(text);
  for (const l of labels) {
    const v = all.get(labelKey(l));
    if (v !== undefined) return v;
  }
  return undefined;
}

function labelKey(label: string): string {
  return fold(label)
    .trim()
    .replace(/[\s-]+/g, '_');
}

function cleanValue(value: string): string {
  let v = value.trim();
  const fence = /^```[\w-]*\n?([\s\S]*?)\n?```$/.exec(v);
  if (fence) v = (fence[1] ?? '').trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))))
    v = v.slice(1, -1).trim();
  return v;
}
