import { isOrganization, isTechnology } from '../gazetteer/index.js';
import { isWordCode } from '../text/chars.js';
import { PLACE_WORDS } from './person-cues.js';
import type { Token, Words } from './person-words.js';

/**
 * Name forms without a first name in front: an initial and a surname ("R. Stewart"), a surname with its particle
 * alone ("van Dijk", "de Castro"), the register form "APELLIDO APELLIDO, NOMBRE", and a lower-case given name
 * and surname ("silvia rosales"). Each returns the tokens it spans and the person's key, given name first.
 */
export interface NameForm {
  first: number;
  last: number;
  score: number;
  key: string;
}

const NAME_EXPECTED =
  /(?:^|[,;:(\n]|\b(?:by|por|con|with|from|to|para|de|and|y|cc|attn|signed|firmado|firma|dr|dra|mr|mrs|ms|sr|sra|soy|am|llamo))\s*$/i;
const known = (t: Token) => (t.cls.given || t.cls.surname) && !t.cls.common;
const strongSurname = (t: Token) => t.cls.surname && !t.cls.ambiguous && !t.cls.common;
const strongGiven = (t: Token) => t.cls.given && !t.cls.ambiguous && !t.cls.common;
const allCaps = (t: Token) => t.raw.length > 1 && t.raw === t.raw.toUpperCase() && t.raw !== t.raw.toLowerCase();
const plainWord = (t: Token) => t.cap && !t.cls.common && !PLACE_WORDS.has(t.key) && t.key.length >= 2;

/** Exactly `gap` between the end of token j-1 and token j. */
function gapIs(text: string, tokens: Words, j: number, gap: string): boolean {
  return j > 0 && j < tokens.length && text.slice(tokens.end(j - 1), tokens.start(j)) === gap;
}

/** Capitalised words right after token i on the same name (one space apart), as long as `ok` holds. */
function surnamesAfter(text: string, tokens: Words, i: number, ok: (t: Token) => boolean, max = 2): number {
  let last = i;
  while (last - i < max && gapIs(text, tokens, last + 1, ' ') && ok(tokens.at(last + 1)!)) last++;
  return last;
}

/** "R. Stewart", "A. Ellsworth", "J. García López": one capital letter, a dot, a space, a surname. */
export function initialAndSurname(text: string, tokens: Words, i: number): NameForm | undefined {
  const t = tokens.at(i)!;
  if (t.raw.length !== 1 || !t.cap || text.charCodeAt(t.end) !== 46 || !gapIs(text, tokens, i + 1, '. '))
    return undefined;
  // A letter glued to digits is a code's ("Y8969726Q. Bloqueo…"), not an initial.
  if (t.start > 0 && isWordCode(text.charCodeAt(t.start - 1))) return undefined;
  // A name's middle initial ("Juan A. Pérez") belongs to the name before it; "EE. UU.", "S. A." are not names.
  const prev = tokens.at(i - 1);
  if (prev && prev.cap && text.slice(prev.end, t.start) === ' ' && !prev.cls.common) return undefined;
  const next = tokens.at(i + 1)!;
  const expected = () => NAME_EXPECTED.test(text.slice(Math.max(0, t.start - 12), t.start));
  // A surname that is also a word ("Miller", "Rosa") counts where a name is expected: "verified by J. Miller".
  if (!plainWord(next) || (next.cls.ambiguous && !(next.cls.surname && expected())) || (allCaps(next) && !known(next)))
    return undefined;
  const last = surnamesAfter(text, tokens, i + 1, (w) => plainWord(w) && !w.cls.ambiguous);
  const surnames = tokens.slice(i + 1, last + 1);
  if (isOrganization(surnames.map((w) => w.key).join(' '))) return undefined;
  // An unknown word after "X." may start a sentence: it is a surname only where a name is expected (after a comma,
  // a colon, a line break or a word such as "by", "por", "con").
  if (!surnames.some(strongSurname) && !expected()) return undefined;
  return {
    first: i,
    last,
    score: surnames.some(strongSurname) ? 0.85 : 0.7,
    key: [t.key, ...surnames.map((w) => w.key)].join(' '),
  };
}

const ENGLISH_BEFORE_NAME = new Set([
  'with',
  'by',
  'from',
  'to',
  'and',
  'cc',
  'attn',
  'dear',
  'thanks',
  'ask',
  'call',
  'contact',
  'signed',
  'chaired',
  'reviewed',
  'approved',
]);
/** Articles and determiners before a noun: "la integración", "el conector", "un módulo", "su API". */
const ARTICLES = new Set(
  'el la los las un una unos unas al del su sus este esta ese esa aquel aquella nuestro nuestra'.split(' '),
);
const FOREIGN_PARTICLES = new Set(['van', 'von', 'der', 'den', 'ter', 'ten', 'zu', 'vom']);
const ROMANCE_PARTICLES = new Set([
  'de',
  'del',
  'da',
  'di',
  'du',
  'dos',
  'das',
  'della',
  'degli',
  'le',
  'la',
  'las',
  'los',
]);

/**
 * "van Dijk", "van der Meer", "da Silva", "de la Fuente": lower-case particles, then a capitalised surname, not
 * after a capitalised word (then they are the middle of a full name, found as such). Dutch and German particles
 * name people; Romance ones ("de", "da") are also prepositions, so the surname must be a known one.
 */
export function particleSurname(text: string, tokens: Words, i: number): NameForm | undefined {
  // A capitalised word within the next three, and none right before: checked on flags, before any lookup.
  if (tokens.cap(i) || !(tokens.cap(i + 1) || tokens.cap(i + 2) || tokens.cap(i + 3))) return undefined;
  if (i > 0 && tokens.cap(i - 1) && tokens.start(i) === tokens.end(i - 1) + 1) return undefined;
  const t = tokens.at(i)!;
  if (!(
    FOREIGN_PARTICLES.has(t.key) ||
    (ROMANCE_PARTICLES.has(t.key) && t.key !== 'la' && t.key !== 'las' && t.key !== 'los' && t.key !== 'le')
  ))
    return undefined;
  const prev = tokens.at(i - 1);
  if (prev && gapIs(text, tokens, i, ' ') && (prev.cap || PLACE_WORDS.has(prev.key))) return undefined;
  let j = i;
  let foreign = FOREIGN_PARTICLES.has(t.key);
  while (j + 1 < tokens.length && gapIs(text, tokens, j + 1, ' ') && !tokens.cap(j + 1) && j - i < 2) {
    const p = tokens.at(j + 1)!;
    if (!FOREIGN_PARTICLES.has(p.key) && !ROMANCE_PARTICLES.has(p.key)) return undefined;
    foreign ||= FOREIGN_PARTICLES.has(p.key);
    j++;
  }
  if (!gapIs(text, tokens, j + 1, ' ')) return undefined;
  const s = tokens.at(j + 1)!;
  // "la migración de Jenkins", "los logs de Cassandra": a technology or an organisation, not a surname.
  if (!plainWord(s) || allCaps(s) || isTechnology(s.key) || isOrganization(s.key)) return undefined;
  // "de" and "da" are also prepositions: after them a surname of the hand lists that is not mainly a given name
  // counts ("Lo revisa de la Fuente"; "de Marbella" is a place, "la cita de Claudia Narváez" the start of a full
  // name), but not after a noun with its article, whose complement it is: "la integración de Vela", "el conector de
  // Roldán" name a product. A surname only the datasets know counts where the text expects a name ("with de
  // Whitlock", "por da Costa"); an unknown word does not ("(de Plus a Pro)" names a plan).
  const expected = () => NAME_EXPECTED.test(text.slice(Math.max(0, t.start - 12), t.start));
  const nounBefore =
    prev !== undefined && !prev.cap && ARTICLES.has(tokens.at(i - 2)?.key ?? '') && gapIs(text, tokens, i - 1, ' ');
  const romanceSurname =
    strongSurname(s) &&
    !(s.cls.given && s.cls.listed) &&
    ((s.cls.handSurname && !nounBefore) || (!s.cls.listed && expected()));
  // In English "de", "da", "du" are no preposition: after an English word that expects a name ("with de Villiers",
  // "by du Plessis") an unknown capitalised word is the surname.
  const englishName =
    !foreign &&
    prev !== undefined &&
    ENGLISH_BEFORE_NAME.has(prev.key) &&
    !s.cls.given &&
    !s.cls.surname &&
    !s.cls.common;
  if (foreign ? s.cls.ambiguous && !strongSurname(s) : !romanceSurname && !englishName) return undefined;
  return {
    first: i,
    last: j + 1,
    score: foreign ? 0.75 : 0.6,
    key: tokens
      .slice(i, j + 2)
      .map((w) => w.key)
      .join(' '),
  };
}

/**
 * "TORRES RAMOS, CLAUDIA", "BAKER, ROSALIND", "Baker, Rosalind": surnames, a comma, the given name. Written in
 * capitals it is a register's form (one of the two parts must be a known name); in title case both must be.
 */
export function registerForm(text: string, tokens: Words, i: number): NameForm | undefined {
  const t = tokens.at(i)!;
  if (!t.cap || t.key.length < 2 || t.cls.common) return undefined;
  const caps = allCaps(t);
  // In title case the surname must not be mainly a given name: "Faltan Luis, Marta y Pilar" is a list.
  const titleSurname = (w: Token) => strongSurname(w) && (w.cls.handSurname || !w.cls.given);
  const surnameOk = (w: Token) =>
    (caps ? allCaps(w) && !w.cls.common && !PLACE_WORDS.has(w.key) : titleSurname(w)) && w.key.length >= 2;
  if (!surnameOk(t)) return undefined;
  const lastSurname = surnamesAfter(text, tokens, i, surnameOk);
  const g = lastSurname + 1;
  if (!gapIs(text, tokens, g, ', ')) return undefined;
  const given = tokens.at(g)!;
  const givenOk = (w: Token) => (caps ? allCaps(w) && !w.cls.common : strongGiven(w)) && w.key.length >= 2;
  if (!givenOk(given)) return undefined;
  const lastGiven = surnamesAfter(text, tokens, g, givenOk, 1);
  const surnames = tokens.slice(i, lastSurname + 1);
  const givens = tokens.slice(g, lastGiven + 1);
  if (caps && !(surnames.some(known) || givens.some((w) => w.cls.given))) return undefined;
  // "MADRID, ESPAÑA": a known place or organisation is not a register line.
  if (isOrganization(surnames.map((w) => w.key).join(' '))) return undefined;
  return { first: i, last: lastGiven, score: 0.85, key: [...givens, ...surnames].map((w) => w.key).join(' ') };
}

/** "silvia rosales": an unambiguous given name and a surname, written in lower case. */
export function lowerCaseName(text: string, tokens: Words, i: number): NameForm | undefined {
  const t = tokens.at(i)!;
  if (t.cap || !strongGiven(t) || t.key.length < 3 || !gapIs(text, tokens, i + 1, ' ')) return undefined;
  // The surname may also be a word ("moreno", "medina"): after an unambiguous given name it is the surname.
  const surname = (w: Token) => !w.cap && w.cls.surname && !w.cls.common && !w.cls.given;
  const next = tokens.at(i + 1)!;
  if (!surname(next)) return undefined;
  const last = surnamesAfter(text, tokens, i + 1, surname, 1);
  return {
    first: i,
    last,
    score: 0.7,
    key: tokens
      .slice(i, last + 1)
      .map((w) => w.key)
      .join(' '),
  };
}
