import { foldToken } from '../text/fold.js';
import { AMBIGUOUS_NAMES } from './ambiguous.js';
import { COMMON_WORDS } from './common-words.js';
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
  /** Known from the hand-written lists; false for a name only the datasets know (datasets.ts): weaker evidence. */
  listed: boolean;
}

/** "I'm", "we'll", "don't": pronouns and verbs, never names. */
const CONTRACTION = /'(?:m|ll|d|ve|re|t)$/;

const cache = new Map<string, NameClass>();
const CACHE_LIMIT = 50_000;

/** Classifies a folded token ("garcia", "jean-pierre", "o'brien"). */
const handListed = (key: string) => GIVEN.has(key) || SURNAMES.has(key) || AMBIGUOUS.has(key);

export function classify(key: string): NameClass {
  const hit = cache.get(key);
  if (hit) return hit;
  const parts = key.includes('-') ? key.split('-') : [key];
  // The hand lists decide for the words they hold (they say which names are also words); the datasets only add
  // names they lack.
  const listed = handListed(key) || (parts.length > 1 && parts.every(handListed));
  const data = nameDatasets();
  const knownGiven = (p: string) => GIVEN.has(p) || (!handListed(p) && data.given.has(p));
  const knownSurname = (p: string) => SURNAMES.has(p) || (!handListed(p) && data.names.has(p));
  const given = knownGiven(key) || (parts.length > 1 && parts.every(knownGiven));
  const surname = knownSurname(key) || (parts.length > 1 && parts.some((p) => knownSurname(p) || knownGiven(p)));
  const common = COMMON.has(key) || TITLES.has(key) || CONTRACTION.test(key);
  const ambiguous = AMBIGUOUS.has(key) || key.length <= 2 || (common && (given || surname));
  const result = { given, surname, ambiguous, common, listed };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, result);
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

const SHAPE_LENGTH = 16;
let shapes: { given: Uint8Array; surname: Uint8Array } | undefined;

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

/**
 * First two letters × last letter × length (capped) of every unambiguous given name and every surname written in
 * ASCII: a lower-case word whose shape is not set is neither, without looking it up (words with accents always are).
 */
export function nameShapes(): { given: Uint8Array; surname: Uint8Array } {
  if (shapes) return shapes;
  const table = (hand: Set<string>, data: Set<string>, ambiguousToo: boolean) => {
    const t = new Uint8Array(26 * 26 * 26 * SHAPE_LENGTH);
    eachName(hand, data, (n) => {
      if ((!ambiguousToo && AMBIGUOUS.has(n)) || COMMON.has(n) || n.length < 2) return;
      const a = n.charCodeAt(0) - 97;
      const b = n.charCodeAt(1) - 97;
      const z = n.charCodeAt(n.length - 1) - 97;
      if (a < 0 || a > 25 || b < 0 || b > 25 || z < 0 || z > 25) return;
      t[nameShape(a, b, z, n.length)] = 1;
    });
    return t;
  };
  const data = nameDatasets();
  return (shapes = { given: table(GIVEN, data.given, false), surname: table(SURNAMES, data.names, true) });
}

export const nameShape = (first: number, second: number, last: number, length: number) =>
  ((first * 26 + second) * 26 + last) * SHAPE_LENGTH + Math.min(length, SHAPE_LENGTH - 1);

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
