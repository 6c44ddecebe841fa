import { foldToken } from '../text/fold.js';
import { AMBIGUOUS_NAMES } from './ambiguous.js';
import { COMMON_WORDS, COMMON_WORDS_ES } from './common-words.js';
import { nameDatasets } from './datasets.js';
import { GIVEN_NAMES_EN, GIVEN_NAMES_EN_SHORT } from './given-names-en.js';
import { GIVEN_NAMES_ES } from './given-names-es.js';
import { ORGANIZATIONS, TECHNOLOGIES } from './organizations.js';
import { SURNAMES_EN } from './surnames-en.js';
import { SURNAMES_ES } from './surnames-es.js';

function words(...lists: string[]): Set<string> {
  const set = new Set<string>();
  for (const list of lists) for (const w of list.split(/\s+/)) if (w) set.add(foldToken(w).replace(/’/g, "'"));
  return set;
}

const GIVEN = words(GIVEN_NAMES_ES, GIVEN_NAMES_EN, GIVEN_NAMES_EN_SHORT);
const SURNAMES = words(SURNAMES_ES, SURNAMES_EN);
const AMBIGUOUS = words(AMBIGUOUS_NAMES);
const COMMON = words(COMMON_WORDS);
const COMMON_ES = words(COMMON_WORDS_ES);
const ORGS = new Set(
  ORGANIZATIONS.split('\n')
    .map((l) => foldToken(l.trim()))
    .filter(Boolean),
);

/** Honorifics and titles: never part of a name, they announce one. */
export const TITLES = words(
  'sr sra srta sres sras d dª dna don dona mr mrs ms miss mx dr dra drs prof profa lic ing sir madam madame mme mlle herr frau sig ldo lda senor senora senorita doctor doctora profesor profesora',
);

export interface NameClass {
  given: boolean;
  surname: boolean;
  /** Also an ordinary word, month, place or brand: needs company to count. */
  ambiguous: boolean;
  /** A frequent word or title: ends a name. */
  common: boolean;
  /**
   * The hand-written lists vouch for its main reading (as a given name when it is one, else as a surname); false for a
   * reading only the datasets give (datasets.ts), which is weaker evidence.
   */
  listed: boolean;
  /** A surname of the hand-written lists. */
  handSurname: boolean;
}

/** "I'm", "we'll", "don't": pronouns and verbs, never names. */
const CONTRACTION = /'(?:m|ll|d|ve|re|t)$/;

const cache = new Map<string, NameClass>();
const CACHE_LIMIT = 50_000;

/** Classifies a folded token ("garcia", "jean-pierre", "o'brien"). */
const handListed = (key: string) => GIVEN.has(key) || SURNAMES.has(key) || AMBIGUOUS.has(key);

/**
 * `accented`: the word was written with a Spanish or Catalan accent ("Germán"), so it is none of the English common
 * words its fold may spell ("german").
 */
export function classify(key: string, accented = false): NameClass {
  const cacheKey = accented ? `${key}\u00b4` : key;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const parts = key.includes('-') ? key.split('-') : [key];
  // The datasets add readings the hand lists lack ("Duncan", a surname there, is also a given name), never to a word
  // the hand lists call ambiguous (they say which names are also ordinary words).
  const data = nameDatasets();
  const knownGiven = (p: string) => GIVEN.has(p) || (!AMBIGUOUS.has(p) && data.given.has(p));
  const knownSurname = (p: string) => SURNAMES.has(p) || (!AMBIGUOUS.has(p) && data.names.has(p));
  const given = knownGiven(key) || (parts.length > 1 && parts.every(knownGiven));
  const surname = knownSurname(key) || (parts.length > 1 && parts.some((p) => knownSurname(p) || knownGiven(p)));
  // The hand lists vouch for its main reading: as a given name when it is one, else as a surname.
  const byHand = (p: string) => AMBIGUOUS.has(p) || (knownGiven(p) ? GIVEN.has(p) : SURNAMES.has(p));
  const listed = parts.length > 1 ? parts.every(byHand) : byHand(key);
  const common = (accented ? COMMON_ES : COMMON).has(key) || TITLES.has(key) || CONTRACTION.test(key);
  const ambiguous = AMBIGUOUS.has(key) || key.length <= 2 || (common && (given || surname));
  const result = { given, surname, ambiguous, common, listed, handSurname: SURNAMES.has(key) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(cacheKey, result);
  return result;
}

export function isOrganization(foldedPhrase: string): boolean {
  return ORGS.has(foldedPhrase);
}

const TECH = words(TECHNOLOGIES);

/** Software, languages and services named like people ("Julia", "Hugo", "Jenkins", "Cassandra"): alone, not a person. */
export function isTechnology(key: string): boolean {
  return TECH.has(key);
}

/** Sizes, for documentation and tests. */
export function gazetteerSizes(): { given: number; surnames: number; ambiguous: number; common: number } {
  return { given: GIVEN.size, surnames: SURNAMES.size, ambiguous: AMBIGUOUS.size, common: COMMON.size };
}

/** Bits of the word hash sets (nameBits): 2^20, about 3 % set by the 35,000 ASCII given names. */
const HASH_BITS = 20;

/** FNV-1a over the char codes of text[start, end): the same for a word wherever it stands. */
export function wordHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> (32 - HASH_BITS);
}

let bits: { given: Uint32Array; surname: Uint32Array } | undefined;

/**
 * One bit per word hash of every name in asciiNames(): a lower-case ASCII word whose bit is clear is certainly not
 * one, found without slicing it out of the text or looking it up.
 */
export function nameBits(): { given: Uint32Array; surname: Uint32Array } {
  if (bits) return bits;
  const table = (names: Set<string>) => {
    const t = new Uint32Array(1 << (HASH_BITS - 5));
    for (const n of names) {
      const h = wordHash(n, 0, n.length);
      t[h >>> 5]! |= 1 << (h & 31);
    }
    return t;
  };
  const names = asciiNames();
  return (bits = { given: table(names.given), surname: table(names.surname) });
}

/** Calls `f` with every name of a hand list and every name of its dataset that no hand list holds. */
function eachName(hand: Set<string>, data: Set<string>, f: (name: string) => void): void {
  for (const n of hand) f(n);
  for (const n of data) if (!handListed(n)) f(n);
}

const isAsciiLower = (n: string) => {
  for (let k = 0; k < n.length; k++) {
    const c = n.charCodeAt(k);
    if (c < 97 || c > 122) return false;
  }
  return true;
};

let lowerNames: { given: Set<string>; surname: Set<string> } | undefined;

/**
 * The unambiguous given names and the surnames (not also given names) spelt in plain ASCII, from the hand lists and
 * the datasets: exact look-ups for lower-case words.
 */
export function asciiNames(): { given: Set<string>; surname: Set<string> } {
  if (lowerNames) return lowerNames;
  const data = nameDatasets();
  const given = new Set<string>();
  eachName(GIVEN, data.given, (n) => {
    if (isAsciiLower(n) && !AMBIGUOUS.has(n) && !COMMON.has(n)) given.add(n);
  });
  const isGiven = (n: string) => GIVEN.has(n) || (!handListed(n) && data.given.has(n));
  const surname = new Set<string>();
  eachName(SURNAMES, data.names, (n) => {
    if (isAsciiLower(n) && !isGiven(n) && !COMMON.has(n)) surname.add(n);
  });
  return (lowerNames = { given, surname });
}
