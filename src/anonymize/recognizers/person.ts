import { asciiNames, isOrganization, isTechnology, nameBits, TITLES } from '../gazetteer/index.js';
import { initialAndSurname, lowerCaseName, particleSurname, registerForm, type NameForm } from './person-forms.js';
import { isSpaceCode } from '../text/chars.js';
import { before, hasCueAfter } from '../text/context.js';
import type { Candidate, Recognizer } from '../types.js';
import {
  BRAND_AFTER,
  BRAND_BEFORE,
  CLOSING_LINE,
  COMPANY_SUFFIX,
  COMPANY_WORDS,
  cueKindsEnding,
  LABEL_CUE,
  LABEL_FIELD_WORDS,
  PLACE_WORDS,
  ROLE_CUE,
  STRONG_CUE,
  TRAILING_PLACE_WORDS,
  TRAILING_ROLE_CUE,
  WEAK_CUE,
} from './person-cues.js';
import { GAP_COLON, GAP_EQUALS, GAP_NEWLINE, Words, type Token } from './person-words.js';

/** Particles inside names: "María de la Fuente", "Ortega y Gasset", "Ludwig van Beethoven". */
const PARTICLES = new Set([
  'de',
  'del',
  'la',
  'las',
  'los',
  'van',
  'von',
  'der',
  'den',
  'da',
  'di',
  'du',
  'dos',
  'das',
  'le',
  'bin',
  'ben',
  'al',
  'el',
]);
const AND = new Set(['y', 'i', 'e']);
const MAX_NAME_TOKENS = 5;

type Cue = 'title' | 'strong' | 'label' | 'role' | 'bare-role' | 'preposition' | 'weak' | 'signature' | 'none';

const DETERMINERS = new Set(
  'el la al del los las mi mis tu tus su sus nuestro nuestra nuestros nuestras the my your our his her their'.split(
    ' ',
  ),
);

/**
 * People's names from a Spanish and English gazetteer, capitalisation and context: titles ("Sra. Gómez"),
 * introductions ("me llamo juan pérez"), form labels ("Titular: …"), greetings ("Hola Marta") and signatures.
 * Names that are also ordinary words (rosa, mayo, Will, May) only count with a surname or a cue.
 */
export const personRecognizer: Recognizer = {
  name: 'person',
  types: ['PERSON'],
  find(text) {
    const tokens = new Words(text);
    const out: Candidate[] = [];
    const angleBrackets = text.includes(' <');
    const push = (form: NameForm) => {
      out.push({
        type: 'PERSON',
        start: tokens.start(form.first),
        end: tokens.end(form.last),
        score: form.score,
        normalized: form.key,
      });
    };
    for (let i = 0; i < tokens.length; i++) {
      const lowerLike = !tokens.cap(i);
      if (lowerLike) {
        const form = lowerForm(text, tokens, i);
        if (form) {
          push(form);
          i = form.last;
          continue;
        }
        if (!mayFollowCue(text, tokens, i)) continue;
      } else {
        const form = capitalForm(text, tokens, i) ?? (angleBrackets ? displayName(text, tokens, i) : undefined);
        if (form) {
          push(form);
          i = form.last;
          continue;
        }
      }
      const t = tokens.at(i)!;
      if (t.cls.common) continue;
      const cue = cueFor(text, tokens, i);
      if (cue === 'none' && lowerLike) continue;
      const found = cue === 'none' ? plainName(text, tokens, i) : cuedName(text, tokens, i, cue);
      if (found === undefined) continue;
      const { first, last, score } = found;
      if (score > 0 && !(cue !== 'strong' && cue !== 'label' && brandUse(text, tokens, first, last))) {
        // Joined (a flat string), not concatenated: the key is hashed and searched again downstream.
        const parts: string[] = [];
        for (let k = first; k <= last; k++) if (isNamePart(tokens.at(k)!)) parts.push(tokens.at(k)!.key);
        const normalized = parts.join(' ');
        out.push({ type: 'PERSON', start: tokens.at(first)!.start, end: tokens.at(last)!.end, score, normalized });
      }
      i = Math.max(i, last);
    }
    return out;
  },
};

/** Verbs whose agent after "by"/"por" is a product's maker, vendor or engine rather than a person. */
const MADE_BY = new Set(
  'built made developed powered provided maintained hosted created designed published distributed manufactured produced supplied backed sponsored offered sold shipped generated compiled desarrollado desarrollada desarrollados fabricado fabricada fabricados creado creada creados proporcionado proporcionada ofrecido ofrecida distribuido distribuida mantenido mantenida alojado alojada impulsado impulsada patrocinado patrocinada producido producida generado generada'.split(
    ' ',
  ),
);

const DOT = 46;
const SIGNATURE_WORDS = new Set(['firma', 'firmado', 'fdo']);
/** Cheap pre-check for BRAND_BEFORE. */
const BRAND_WORDS = /tienda|marca|brand|store|shop|product|compr|bought|ordered|pedido/i;

/** An initial and a surname, or the register form (person-forms.ts), looked at only where one can start. */
function capitalForm(text: string, tokens: Words, i: number): NameForm | undefined {
  const start = tokens.start(i);
  const end = tokens.end(i);
  if (end - start === 1) return text.charCodeAt(end) === DOT ? initialAndSurname(text, tokens, i) : undefined;
  // The register form has ", " after its first, second or third word.
  for (let j = i; j < i + 3 && j + 1 < tokens.length; j++) {
    const e = tokens.end(j);
    if (text.charCodeAt(e) === 44 && text.charCodeAt(e + 1) === 32 && tokens.start(j + 1) === e + 2)
      return registerForm(text, tokens, i);
    if (tokens.start(j + 1) !== e + 1) break;
  }
  return undefined;
}

/**
 * "Ffion Fairweather <ffion.fw@example.org>": capitalised words right before an e-mail address in angle brackets,
 * one of them a known name, are its owner's display name ("Soporte Lumora <soporte@…>" names no one).
 */
function displayName(text: string, tokens: Words, i: number): NameForm | undefined {
  let last = i;
  while (last - i < 3 && tokens.cap(last + 1) && sameName(text, tokens, last + 1)) last++;
  const end = tokens.end(last);
  if (text.charCodeAt(end) !== 32 || text.charCodeAt(end + 1) !== 60) return undefined;
  const close = text.indexOf('>', end + 2);
  const at = text.indexOf('@', end + 2);
  if (close < 0 || close - end > 80 || at < 0 || at > close) return undefined;
  const words = tokens.slice(i, last + 1);
  if (!words.some(nameLike) || words.some((w) => w.cls.common || allCaps(w))) return undefined;
  if (suppressed(text, tokens, i, last)) return undefined;
  return {
    first: i,
    last,
    score: 0.85,
    key: words
      .filter(isNamePart)
      .map((w) => w.key)
      .join(' '),
  };
}

/** Particle surnames and lower-case names (person-forms.ts), looked up only for words that can start one. */
function lowerForm(text: string, tokens: Words, i: number): NameForm | undefined {
  const length = tokens.end(i) - tokens.start(i);
  if (length <= 5 && length >= 2 && PARTICLE_FIRST.has(text.charCodeAt(tokens.start(i)))) {
    // A particle is followed, within three words, by a capitalised one ("david romero" is no particle: go on).
    if (PARTICLE_STARTS.has(text.slice(tokens.start(i), tokens.end(i))))
      return tokens.cap(i + 1) || tokens.cap(i + 2) || tokens.cap(i + 3) ? particleSurname(text, tokens, i) : undefined;
  }
  if (length < 3 || i + 1 >= tokens.length || tokens.cap(i + 1)) return undefined;
  const bits = nameBits();
  if (!tokens.mayBeName(i, bits.given) || !tokens.mayBeName(i + 1, bits.surname)) return undefined;
  // Plain ASCII words are looked up exactly, without making tokens of them; words with accents go the token way.
  const names = asciiNames();
  const word = text.slice(tokens.start(i), tokens.end(i));
  const next = text.slice(tokens.start(i + 1), tokens.end(i + 1));
  if (!names.given.has(word) && !NON_ASCII.test(word)) return undefined;
  if (!names.surname.has(next) && !NON_ASCII.test(next)) return undefined;
  return lowerCaseName(text, tokens, i);
}
const PARTICLE_STARTS = new Set([
  'van',
  'von',
  'der',
  'den',
  'ter',
  'ten',
  'zu',
  'vom',
  'de',
  'del',
  'da',
  'di',
  'du',
  'dos',
  'das',
  'della',
  'degli',
]);
const NON_ASCII = /[^\x00-\x7f]/;
const PARTICLE_FIRST = new Set([...PARTICLE_STARTS].map((p) => p.charCodeAt(0)));

/** Cheap pre-check for lower-case tokens: only worth a look right after a cue word, a title or a colon. */
function mayFollowCue(text: string, tokens: Words, i: number): boolean {
  if (i === 0) return false;
  if (tokens.gap(i) & GAP_COLON) return true;
  if (!tokens.mayBeCueOrTitle(i - 1)) return false;
  const prev = tokens.at(i - 1)!;
  return cueKindsEnding(prev.key, () => tokens.at(i - 2)?.key) !== undefined || TITLES.has(prev.key);
}

/** ".", " ", ". ", "  ": what may stand between a title and the name ("Sr. Pérez", "Mr Smith"). */
function titleGap(text: string, from: number, to: number): boolean {
  const len = to - from;
  if (len === 0 || len > 3) return false;
  let k = from;
  if (text.charCodeAt(k) === DOT) k++;
  if (to - k > 2) return false;
  for (; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function cueFor(text: string, tokens: Words, i: number): Cue {
  const t = tokens.at(i)!;
  if ((i === 0 || tokens.gap(i) & GAP_NEWLINE) && chatSpeaker(text, t.start)) return 'label';
  if (i === 0) return 'none';
  const from = tokens.end(i - 1);
  const to = t.start;
  const gap = tokens.gap(i);
  const newline = (gap & GAP_NEWLINE) !== 0;
  const colon = (gap & (GAP_COLON | GAP_EQUALS)) !== 0;
  // Neither a title, nor a cue word, nor a line break or colon before the word: no cue.
  if (!newline && !colon && !tokens.mayBeCueOrTitle(i - 1)) return 'none';
  const prev = tokens.at(i - 1)!;
  if (TITLES.has(prev.key) && titleGap(text, from, to)) {
    if (prev.key !== 'd' || (text.charCodeAt(from) === DOT && t.cls.given)) return 'title';
  }
  if (newline && signatureLine(text, t.start)) return 'signature';
  const kinds = cueKindsEnding(prev.key, () => tokens.at(i - 2)?.key);
  const label = kinds?.has('label') || (colon && LABEL_FIELD_WORDS.has(prev.key));
  if (kinds === undefined && !label) return 'none';
  const window = before(text, t.start, 40);
  if (kinds?.has('strong') && STRONG_CUE.test(window)) return 'strong';
  if (label && LABEL_CUE.test(window)) return 'label';
  if (kinds?.has('weak') && WEAK_CUE.test(window)) return 'weak';
  if (kinds?.has('role') && ROLE_CUE.test(window)) {
    if (prev.key === 'por' || prev.key === 'by') {
      // "built by Sawyer", "desarrollado por Vela": what is made, powered or provided by a name is a product's or a
      // vendor's work; a person needs a cue of their own.
      return MADE_BY.has(tokens.at(i - 2)?.key ?? '') ? 'none' : 'preposition';
    }
    // "el cliente", "my cousin": a determiner makes the role noun point at someone; "Soy cliente Pro" does not.
    return DETERMINERS.has(tokens.at(i - 2)?.key ?? '') ? 'role' : 'bare-role';
  }
  return 'none';
}

/** First characters of the company suffixes (COMPANY_SUFFIX), after optional blanks and a comma. */
const COMPANY_SUFFIX_FIRST = new Set([...'SILGPpC&yAHeaF'].map((c) => c.charCodeAt(0)));

/** Necessary for COMPANY_SUFFIX to match at `from`: the first character after blanks and an optional comma starts a suffix. */
function mayStartCompanySuffix(text: string, from: number): boolean {
  let k = from;
  let comma = false;
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 44 && !comma) comma = true;
    else if (!isSpaceCode(c)) break;
  }
  return k < text.length && COMPANY_SUFFIX_FIRST.has(text.charCodeAt(k));
}

/** A chat export's line: "[26/06/2024 03:54] " or "26/06/24, 3:54 - " before the speaker's name and its colon. */
const CHAT_STAMP = /^\s*(?:\[[\d/.:, -]{8,24}\]|\d{1,2}\/\d{1,2}\/\d{2,4},? \d{1,2}:\d{2}(?::\d{2})? ?[-–])\s*$/;
const SPEAKER_END = /^[\p{L}\p{M}'’ .-]{0,40}:/u;

function chatSpeaker(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const first = text.charCodeAt(lineStart);
  if (start - lineStart < 9 || (first !== 91 && !(first >= 48 && first <= 57))) return false;
  return CHAT_STAMP.test(text.slice(lineStart, start)) && SPEAKER_END.test(text.slice(start, start + 42));
}

function signatureLine(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  // Only blanks, quote marks and bullets before the name on its line (/^[\s>*-]*$/).
  for (let k = lineStart; k < start; k++) {
    const c = text.charCodeAt(k);
    if (!isSpaceCode(c) && c !== 62 && c !== 42 && c !== 45) return false;
  }
  let end = lineStart - 1;
  for (let blank = 0; end > 0 && blank < 3; blank++) {
    const s = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(s, end);
    const trimmed = line.trim();
    // Closing phrases are short ("Un saludo cordial,"): longer lines are content.
    if (trimmed !== '') return trimmed.length <= 40 && CLOSING_LINE.test(before(line, line.length, line.length));
    end = s - 1;
  }
  return false;
}

/** "FORM", "IBAN": headings and acronyms, not names, unless the gazetteer knows the word. */
const allCaps = (t: Token) => t.raw.length > 1 && t.raw === t.raw.toUpperCase();
const nameLike = (t: Token) => (t.cls.given || t.cls.surname) && !t.cls.common;
const capWord = (t: Token) => t.cap && !t.cls.common;
const strongGiven = (t: Token) => t.cls.given && !t.cls.ambiguous;
const strongSurname = (t: Token) => t.cls.surname && !t.cls.ambiguous;
const notCommon = (t: Token) => !t.cls.common;
const nameOrCapWord = (t: Token) => nameLike(t) || capWord(t);
const strongSurnameOrGiven = (t: Token) => strongSurname(t) || strongGiven(t);
/** A known name (hand lists or datasets) that is not also an ordinary word. */
const datasetStrong = (t: Token) => (t.cls.given || t.cls.surname) && !t.cls.ambiguous && !t.cls.common;
const isNamePart = (t: Token) => !PARTICLES.has(t.key) && !AND.has(t.key);

/**
 * Extends a name from token i while the next words qualify: joined by spaces on the same line, with particles
 * ("de la") only before a capitalised word and "y"/"i" only before a surname that is not also a given name.
 */
function extend(text: string, tokens: Words, i: number, next: (t: Token) => boolean): number {
  let last = i;
  let count = 1;
  while (count < MAX_NAME_TOKENS) {
    let j = last + 1;
    if (!sameName(text, tokens, j)) break;
    const t = tokens.at(j);
    if (!t) break;
    // "Warren Hughes Ltd", "Edith Cavell Hospice": the organisation's word is not part of a name (see suppressed).
    if (COMPANY_WORDS.has(t.key) || TRAILING_PLACE_WORDS.has(t.key) || isTechnology(t.key)) break;
    if (PARTICLES.has(t.key) || AND.has(t.key)) {
      let k = j + 1;
      while (PARTICLES.has(tokens.at(k)?.key ?? '') && sameName(text, tokens, k) && k - j < 3) k++;
      const after = tokens.at(k);
      if (!after || !sameName(text, tokens, k) || !after.cap || after.cls.common || isTechnology(after.key)) break;
      if (AND.has(t.key) ? !(after.cls.surname && !after.cls.given) : after.cls.ambiguous && !strongSurname(after))
        break;
      // "el Honda de Eva Sarmiento": after a word that is no given name of the hand lists, "de" and a given name
      // (mainly one, or one followed by a surname) start the owner's own name; "María de Jesús", "Juan de la Cruz" go on.
      if (!AND.has(t.key) && after.cls.given && !startsAsGiven(tokens.at(i)!)) {
        if (
          !after.cls.handSurname ||
          (sameName(text, tokens, k + 1) && tokens.cap(k + 1) && tokens.at(k + 1)!.cls.surname)
        )
          break;
      }
      j = k;
    } else if (!next(t)) break;
    last = j;
    count++;
  }
  return last;
}

const startsAsGiven = (t: Token) => t.cls.given && t.cls.listed;

/** Token j continues the name of token j-1: one or two spaces or tabs between them. */
function sameName(text: string, tokens: Words, j: number): boolean {
  if (j <= 0 || j >= tokens.length) return false;
  return blanks(text, tokens.end(j - 1), tokens.start(j), 2, false);
}

/** Between 1 and `max` spaces or tabs (or dots, when `dots`) from `from` to `to`. */
function blanks(text: string, from: number, to: number, max: number, dots: boolean): boolean {
  const len = to - from;
  if (len < 1 || len > max) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9 && !(dots && c === DOT)) return false;
  }
  return true;
}

function suppressed(text: string, tokens: Words, first: number, last: number): boolean {
  if (afterPlaceName(text, tokens, first)) return true;
  for (let k = first + 1; k <= last; k++) if (TRAILING_PLACE_WORDS.has(tokens.at(k)!.key)) return true;
  // The word right after the name makes it an organisation's or a place's ("Edith Cavell Hospice", "… Ltd").
  if (sameName(text, tokens, last + 1)) {
    const key = tokens.at(last + 1)!.key;
    if (COMPANY_WORDS.has(key) || (tokens.cap(last + 1) && TRAILING_PLACE_WORDS.has(key))) return true;
  }
  const after = tokens.at(last)!.end;
  if (mayStartCompanySuffix(text, after) && COMPANY_SUFFIX.test(text.slice(after, after + 16))) return true;
  let phrase = tokens.at(first)!.key;
  for (let k = first + 1; k <= last; k++) phrase += ` ${tokens.at(k)!.key}`;
  // "Wendy's", "McDonald's": a brand's possessive form.
  const end = tokens.at(last)!.end;
  if (/^['’]s(?![\p{L}])/u.test(text.slice(end, end + 3)) && isOrganization(`${phrase}'s`)) return true;
  return isOrganization(phrase);
}

/**
 * A name used as a brand, checked once a candidate stands: "my John Lewis order", "la tienda de Tío Pepe", and the
 * word before as part of a listed brand ("Tío Pepe", where "tío" is also a role word).
 */
function brandUse(text: string, tokens: Words, first: number, last: number): boolean {
  const end = tokens.end(last);
  BRAND_AFTER.lastIndex = end;
  if (text.charCodeAt(end) === 32 && BRAND_AFTER.test(text)) return true;
  const window = text.slice(Math.max(0, tokens.start(first) - 30), tokens.start(first));
  if (BRAND_WORDS.test(window) && BRAND_BEFORE.test(window)) return true;
  const before = tokens.at(first - 1);
  if (!before) return false;
  let phrase = `${before.key}`;
  for (let k = first; k <= last; k++) phrase += ` ${tokens.at(k)!.key}`;
  return isOrganization(phrase);
}

/**
 * The name is part of a place's or an institution's name: "Calle Juan Bravo", "Hospital Dr. Sótero del Río",
 * "Instituto Nacional de Cardiología Ignacio Chávez". Walks back over particles, a title and the institution's
 * other capitalised words (at most five) to a place word.
 */
function afterPlaceName(text: string, tokens: Words, first: number): boolean {
  let p = first - 1;
  for (let steps = 0; p >= 0 && steps < 6; steps++, p--) {
    const t = tokens.at(p)!;
    if (!blanks(text, t.end, tokens.at(p + 1)!.start, 3, true)) return false;
    if (PLACE_WORDS.has(t.key)) return true;
    if (!(PARTICLES.has(t.key) || TITLES.has(t.key) || (t.cap && !nameLikeToken(t)))) return false;
  }
  return false;
}
const nameLikeToken = (t: Token) => (t.cls.given || t.cls.surname) && !t.cls.common;

function cuedName(
  text: string,
  tokens: Words,
  i: number,
  cue: Cue,
): { first: number; last: number; score: number } | undefined {
  const t = tokens.at(i)!;
  if (t.key.length <= 2 && cue !== 'title') return undefined;
  let score: number;
  switch (cue) {
    case 'title':
      if (!(capWord(t) || nameLike(t))) return undefined;
      // "Hospital Dr. Peset", "Dr. Oetker": a place or a brand named after a doctor.
      if (afterPlaceName(text, tokens, i - 1) || isOrganization(`${tokens.at(i - 1)!.key} ${t.key}`)) return undefined;
      score = 0.9;
      break;
    case 'strong':
      if (t.cls.common && !nameLike(t)) return undefined;
      // "la firma: estás firmando": a signature cue is followed by a written name, capitalised or known.
      if (SIGNATURE_WORDS.has(tokens.at(i - 1)!.key) && !t.cap && !nameLike(t)) return undefined;
      score = 0.9;
      break;
    case 'label':
      // After "Cliente:" an unknown capitalised word is usually the start of an utterance ("Cliente: Lamento…"):
      // only a known name or two capitalised words ("Titular: Xiomara Etxeberria") count.
      if (nameLike(t)) score = 0.85;
      else if (capWord(t) && capWord(tokens.at(i + 1) ?? t) && tokens.at(i + 1) && sameName(text, tokens, i + 1))
        score = 0.7;
      else return undefined;
      break;
    case 'role':
      // "mi prima Zuriñe", "the customer Ewa Nowak": capitalised words, or a known given name in any case.
      if (!t.cap || (allCaps(t) && !nameLike(t))) return undefined;
      if (t.cls.given && !t.cls.common) score = t.cls.ambiguous ? 0.75 : 0.85;
      else if (capWord(t) && !t.cls.ambiguous) score = 0.75;
      else return undefined;
      break;
    case 'preposition':
    case 'bare-role': {
      // "atendido por Marta", "handled by Ewa Nowak", "cliente Zuriñe Lekuona", but not "por Wi-Fi", "by Amazon",
      // "Soy cliente Pro": a known given name, a capitalised word followed by a known surname, or (after a role
      // noun) two capitalised words.
      if (!t.cap || allCaps(t)) return undefined;
      const next = sameName(text, tokens, i + 1) ? tokens.at(i + 1) : undefined;
      if (t.cls.given && !t.cls.common) score = t.cls.ambiguous ? 0.6 : 0.8;
      else if (capWord(t) && !t.cls.ambiguous && next && strongSurname(next)) score = 0.75;
      else if (cue === 'bare-role' && capWord(t) && !t.cls.ambiguous && next && capWord(next) && !allCaps(next))
        score = 0.7;
      else return undefined;
      break;
    }
    case 'weak':
    case 'signature':
      if (allCaps(t) && !nameLike(t)) return undefined;
      if (!(t.cls.given || (capWord(t) && !t.cls.ambiguous) || (cue === 'signature' && nameLike(t)))) return undefined;
      score = t.cls.given || nameLike(t) ? (t.cls.ambiguous ? 0.75 : 0.85) : 0.7;
      break;
    default:
      return undefined;
  }
  // After "me llamo" every following word that is not a common one belongs to the name ("me llamo andrea villalobos").
  const last = extend(text, tokens, i, cue === 'strong' ? notCommon : nameOrCapWord);
  if (cue !== 'title' && cue !== 'strong' && suppressed(text, tokens, i, last)) return undefined;
  // "Gracias. Veo que…": an unknown word after a greeting is a name only if it stands alone ("Hola Xiomara,").
  // The same for a role: "el empleado Nido con…", "el cliente Pro y…" name a product or a plan, "mi prima Zuriñe," a person.
  if (
    (cue === 'weak' || cue === 'signature' || cue === 'role' || cue === 'bare-role') &&
    last === i &&
    !nameLike(t) &&
    !/^\s*(?:[,.!?:;)\n]|$)/.test(text.slice(t.end, t.end + 2))
  )
    return undefined;
  if (last > i && score < 0.8 && tokens.slice(i + 1, last + 1).some(nameLike)) score = 0.8;
  return { first: i, last, score };
}

/** A capitalised name without any cue: scored by what the gazetteer knows about its words. */
function plainName(text: string, tokens: Words, i: number): { first: number; last: number; score: number } | undefined {
  const t = tokens.at(i)!;
  if (!capWord(t) || t.key.length <= 2) return undefined;
  if (!nameLike(t)) return unknownThenSurname(text, tokens, i);
  const last = extend(text, tokens, i, capWord);
  if (suppressed(text, tokens, i, last)) return { first: i, last, score: 0 };
  // "el Mercedes de Andrés", "un Ferrari", "the John Lewis one": an article makes the words a thing's name.
  if (i > 0 && ARTICLES.has(tokens.at(i - 1)!.key) && sameName(text, tokens, i)) return { first: i, last, score: 0 };
  const rest = tokens.slice(i + 1, last + 1).filter(isNamePart);
  const initial = sentenceInitial(text, t.start);
  // After a field's colon ("Taller asignado: Loreto Jurado") a value starts, not a sentence.
  const afterColon = initial && lastNonBlank(text, t.start) === ':';
  let score = 0;
  if (rest.length === 0) {
    // "Julia calcula la media", "Hugo genera la web": a technology named like a person, standing alone. A name
    // only the datasets know ("Luigi", "Honda") is not enough alone: repeats of a full name are found by propagation.
    score = strongGiven(t) && t.cls.listed && !isTechnology(t.key) ? 0.6 : 0;
    // "The panel is Ana, Duncan and Isolde": a given name listed next to another one.
    if (score === 0 && strongGiven(t) && !isTechnology(t.key) && inNameList(text, tokens, i)) score = 0.6;
    // "Faltan Iván, Gorka, Joaquín y Pilar": a name that is also a word, in a list of two other given names.
    if (score === 0 && t.cls.given && !isTechnology(t.key) && givenNamesInList(text, tokens, i) >= 2) score = 0.6;
    // "dejo el paquete a Milagros, la vecina": a role in apposition makes even an ordinary word a name.
    if (t.cls.given && hasCueAfter(text, t.end, TRAILING_ROLE_CUE, 30)) score = t.cls.ambiguous ? 0.75 : 0.85;
  } else if (strongGiven(t) && rest.some((w) => w.cls.handSurname && !w.cls.common && w.cap && !allCaps(w))) {
    // "Isolde Miller", "Duncan Turner": a given name only the datasets know, then a surname of the hand lists (also
    // when the surname is a word too).
    score = t.cls.listed ? 0.85 : 0.7;
  } else if (!t.cls.listed && !rest.some(datasetStrong)) {
    // "Tate Modern", "Cola Cao": a name only the datasets know needs a second name that is not a frequent word.
    score = 0;
  } else if (strongGiven(t)) {
    score = 0.85;
  } else if (t.cls.given) {
    if (rest.some(strongSurnameOrGiven)) score = 0.85;
    else if (initial && !afterColon) score = 0;
    else score = PARTICLES.has(tokens.at(i + 1)?.key ?? '') ? 0.45 : 0.55;
  } else if (strongSurname(t)) {
    score = rest.some(strongSurnameOrGiven) ? 0.7 : 0;
  } else if (t.cls.surname) {
    score = rest.some(strongSurname) ? 0.6 : 0;
  }
  return { first: i, last, score };
}

/**
 * Articles that do not stand before a person's name in writing ("la"/"el" before a name is colloquial and rare; "a"
 * is also the Spanish preposition: "dejo el paquete a Milagros").
 */
const ARTICLES = new Set(['el', 'un', 'una', 'the', 'an']);

const LIST_AND = new Set(['y', 'e', 'i', 'and', '&']);

/** Token i is an item of a list ("A, B", "B y C", "B and C") whose neighbouring item is a given name. */
function inNameList(text: string, tokens: Words, i: number): boolean {
  const givenWord = (t: Token | undefined) => t !== undefined && t.cap && strongGiven(t);
  const comma = (a: number, b: number) => {
    const gap = text.slice(tokens.end(a), tokens.start(b));
    return gap === ', ' || gap === ',';
  };
  // "y", "and" between two single spaces.
  const and = (a: number, b: number) =>
    b === a + 2 && LIST_AND.has(tokens.at(a + 1)!.key) && sameName(text, tokens, a + 1) && sameName(text, tokens, b);
  return (
    (i > 0 && comma(i - 1, i) && givenWord(tokens.at(i - 1))) ||
    (i + 1 < tokens.length && comma(i, i + 1) && givenWord(tokens.at(i + 1))) ||
    (i > 1 && and(i - 2, i) && givenWord(tokens.at(i - 2))) ||
    (i + 2 < tokens.length && and(i, i + 2) && givenWord(tokens.at(i + 2)))
  );
}

/** "Tom Nakamura", "Marcus Webb": a capitalised word the gazetteer lacks, then a known surname, mid-sentence. */
function unknownThenSurname(
  text: string,
  tokens: Words,
  i: number,
): { first: number; last: number; score: number } | undefined {
  if (!tokens.cap(i + 1) || !sameName(text, tokens, i + 1)) return undefined;
  const t = tokens.at(i)!;
  const next = tokens.at(i + 1)!;
  // A surname only the datasets know is not enough after an unknown word ("Cola Cao").
  if (!strongSurname(next) || !next.cls.handSurname) return undefined;
  if (t.cls.ambiguous || PLACE_WORDS.has(t.key) || sentenceInitial(text, t.start)) return undefined;
  const last = extend(text, tokens, i + 1, capWord);
  if (suppressed(text, tokens, i, last)) return { first: i, last, score: 0 };
  return { first: i, last, score: 0.55 };
}

/** The last character before `start` that is not a blank or an opening quote or bracket. */
function lastNonBlank(text: string, start: number): string {
  for (let k = start - 1; k >= 0; k--) {
    const c = text[k]!;
    if (c !== ' ' && c !== '\t' && c !== '"' && c !== '«' && c !== '(' && c !== '¿' && c !== '¡') return c;
  }
  return '';
}

/**
 * How many other items of the list token i stands in are given names that are no ordinary words: the items are
 * single capitalised words between ", " and " y "/" and " ("Iván, Gorka, Joaquín y Pilar").
 */
function givenNamesInList(text: string, tokens: Words, i: number): number {
  const separated = (a: number, b: number): number => {
    const gap = text.slice(tokens.end(a), tokens.start(b));
    if (gap === ', ' || gap === ',') return 1;
    if (
      b === a + 2 &&
      LIST_AND.has(tokens.at(a + 1)!.key) &&
      sameName(text, tokens, a + 1) &&
      sameName(text, tokens, b)
    )
      return 2;
    return 0;
  };
  let count = 0;
  for (let k = i, steps = 0; k > 0 && steps < 8; steps++) {
    const back = k >= 2 && separated(k - 2, k) === 2 ? 2 : separated(k - 1, k) === 1 ? 1 : 0;
    if (back === 0 || !tokens.cap(k - back)) break;
    k -= back;
    if (strongGiven(tokens.at(k)!)) count++;
  }
  for (let k = i, steps = 0; k + 1 < tokens.length && steps < 8; steps++) {
    const ahead = separated(k, k + 1) === 1 ? 1 : k + 2 < tokens.length && separated(k, k + 2) === 2 ? 2 : 0;
    if (ahead === 0 || !tokens.cap(k + ahead)) break;
    k += ahead;
    if (strongGiven(tokens.at(k)!)) count++;
  }
  return count;
}

function sentenceInitial(text: string, start: number): boolean {
  for (let k = start - 1; k >= 0; k--) {
    const c = text[k]!;
    if (c === ' ' || c === '\t' || c === '"' || c === '«' || c === '(' || c === '¿' || c === '¡') continue;
    return c === '.' || c === '!' || c === '?' || c === '\n' || c === ':';
  }
  return true;
}
