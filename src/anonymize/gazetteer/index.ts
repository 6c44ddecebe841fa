import { foldToken } from '../text/fold.js';
import { AMBIGUOUS_NAMES } from './ambiguous.js';
import { COMMON_WORDS } from './common-words.js';
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
}

/** "I'm", "we'll", "don't": pronouns and verbs, never names. */
const CONTRACTION = /'(?:m|ll|d|ve|re|t)$/;

const cache = new Map<string, NameClass>();
const CACHE_LIMIT = 50_000;

/** Classifies a folded token ("garcia", "jean-pierre", "o'brien"). */
export function classify(key: string): NameClass {
  const hit = cache.get(key);
  if (hit) return hit;
  const parts = key.includes('-') ? key.split('-') : [key];
  const given = GIVEN.has(key) || (parts.length > 1 && parts.every((p) => GIVEN.has(p)));
  const surname = SURNAMES.has(key) || (parts.length > 1 && parts.some((p) => SURNAMES.has(p) || GIVEN.has(p)));
  const common = COMMON.has(key) || TITLES.has(key) || CONTRACTION.test(key);
  const ambiguous = AMBIGUOUS.has(key) || key.length <= 2 || (common && (given || surname));
  const result = { given, surname, ambiguous, common };
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

/**
 * First two letters × last letter × length (capped) of every unambiguous given name and every surname written in
 * ASCII: a lower-case word whose shape is not set is neither, without looking it up (words with accents always are).
 */
export function nameShapes(): { given: Uint8Array; surname: Uint8Array } {
  if (shapes) return shapes;
  const table = (names: Set<string>, ambiguousToo: boolean) => {
    const t = new Uint8Array(26 * 26 * 26 * SHAPE_LENGTH);
    for (const n of names) {
      if ((!ambiguousToo && AMBIGUOUS.has(n)) || COMMON.has(n) || n.length < 2) continue;
      const codes = [n.charCodeAt(0) - 97, n.charCodeAt(1) - 97, n.charCodeAt(n.length - 1) - 97];
      if (codes.some((c) => c < 0 || c > 25)) continue;
      t[nameShape(codes[0]!, codes[1]!, codes[2]!, n.length)] = 1;
    }
    return t;
  };
  return (shapes = { given: table(GIVEN, false), surname: table(SURNAMES, true) });
}

export const nameShape = (first: number, second: number, last: number, length: number) =>
  ((first * 26 + second) * 26 + last) * SHAPE_LENGTH + Math.min(length, SHAPE_LENGTH - 1);

let lowerNames: { given: Set<string>; surname: Set<string> } | undefined;

/** The unambiguous given names and the surnames (not also given names) spelt in plain ASCII: exact look-ups for lower-case words. */
export function asciiNames(): { given: Set<string>; surname: Set<string> } {
  if (lowerNames) return lowerNames;
  const ascii = (n: string) => /^[a-z]+$/.test(n);
  const given = new Set([...GIVEN].filter((n) => ascii(n) && !AMBIGUOUS.has(n) && !COMMON.has(n)));
  const surname = new Set([...SURNAMES].filter((n) => ascii(n) && !GIVEN.has(n) && !COMMON.has(n)));
  return (lowerNames = { given, surname });
}
