import { fold } from './text/fold.js';
import type { Candidate } from './types.js';

/**
 * One address written two ways in one trace gets one placeholder: "Flat 8, 196 Harbour Close" and "196 Harbour
 * Close", "Avda. de Andalucía nº 42, 9º G" and "Avenida de Andalucía 42". An address is keyed by its street core:
 * the street type written out (C/ → calle, Avda. → avenida, St → street), the street's name without its links (de,
 * la, of the) and the house number; case, accents and punctuation aside, and without the flat, floor, door,
 * building, postcode and town. A short form the recognizers do not read alone ("25 Queensway", "214, Tanners Hill",
 * "Andalucía, 42") is found where the trace wrote the long one.
 */
export interface StreetCore {
  /** The placeholder key: "avenida andalucia 42", "196 harbour close". */
  key: string;
  /** The street's name as folded words, links and type aside ("andalucia", "harbour"). */
  name: string[];
  number: string;
  /** English order: number first ("196 Harbour Close"); Spanish: type, name, number. */
  numberFirst: boolean;
}

const ES_TYPES: Record<string, string> = {
  calle: 'calle',
  c: 'calle',
  cl: 'calle',
  'c/': 'calle',
  avenida: 'avenida',
  avda: 'avenida',
  avd: 'avenida',
  av: 'avenida',
  paseo: 'paseo',
  pº: 'paseo',
  'p.º': 'paseo',
  plaza: 'plaza',
  pza: 'plaza',
  pl: 'plaza',
  ronda: 'ronda',
  rda: 'ronda',
  travesia: 'travesia',
  trav: 'travesia',
  glorieta: 'glorieta',
  gta: 'glorieta',
  camino: 'camino',
  carretera: 'carretera',
  ctra: 'carretera',
  carrer: 'carrer',
  passeig: 'passeig',
  placa: 'placa',
  avinguda: 'avinguda',
  rua: 'rua',
  urbanizacion: 'urbanizacion',
  urb: 'urbanizacion',
  poligono: 'poligono',
  callejon: 'callejon',
  cuesta: 'cuesta',
  bulevar: 'bulevar',
  bv: 'bulevar',
  alameda: 'alameda',
  pasaje: 'pasaje',
  pje: 'pasaje',
  rambla: 'rambla',
  calzada: 'calzada',
  calz: 'calzada',
  carrera: 'carrera',
  cra: 'carrera',
  kr: 'carrera',
  jiron: 'jiron',
  jr: 'jiron',
};
const EN_TYPES: Record<string, string> = {
  st: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  ln: 'lane',
  dr: 'drive',
  blvd: 'boulevard',
  ct: 'court',
  pl: 'place',
  sq: 'square',
  pkwy: 'parkway',
  hwy: 'highway',
  cir: 'circle',
  ter: 'terrace',
  cres: 'crescent',
};
const LINKS = new Set(['de', 'del', 'la', 'las', 'los', 'el', 'd', 'l', 'dels', 'of', 'the', 'da', 'do', 'dos', 'das']);
/** Words of a flat, floor, door or unit: the segment they open is not the street's. */
const UNIT_WORDS = new Set(
  'flat apartment apt unit suite room studio piso planta pta puerta esc escalera bajo atico dcha izda izq dpto depto apto departamento int of oficina local casa bloque portal'.split(
    ' ',
  ),
);
const NUMBER_MARKS = new Set(['n', 'nº', 'no', 'num', 'numero', '#']);
const HOUSE_NUMBER = /^\d{1,5}[a-z]?$/;

const words = (segment: string) =>
  segment
    .replace(/c\//g, 'c/ ')
    .replace(/([np])\.\s?º/g, '$1º')
    .split(/[\s.()]+/)
    .filter((w) => w !== '');

/** The street core of an address as written, or undefined when no street and house number can be told apart. */
export function streetCore(raw: string): StreetCore | undefined {
  const segments = fold(raw)
    .split(/[,;]|\s[-–]\s/)
    .map((s) => words(s.trim()));
  return spanishCore(segments) ?? englishCore(segments);
}

/** "calle de juan de garay nº 120", or "ronda de isabel la catolica" followed by ", 111". */
function spanishCore(segments: string[][]): StreetCore | undefined {
  const i = segments.findIndex((w) => w.length > 0 && ES_TYPES[w[0]!] !== undefined);
  if (i < 0) return undefined;
  const w = segments[i]!;
  const rest = w.slice(1).filter((x) => !NUMBER_MARKS.has(x));
  let number = rest.length > 1 && HOUSE_NUMBER.test(rest[rest.length - 1]!) ? rest.pop() : undefined;
  if (number === undefined) {
    const next = (segments[i + 1] ?? []).filter((x) => !NUMBER_MARKS.has(x));
    if (next.length === 1 && HOUSE_NUMBER.test(next[0]!)) number = next[0];
  }
  const name = rest.filter((x) => !LINKS.has(x));
  if (number === undefined || name.length === 0) return undefined;
  return { key: `${ES_TYPES[w[0]!]} ${name.join(' ')} ${number}`, name, number, numberFirst: false };
}

/** "196 harbour close", or "11" then "queensway" in the next segment; a flat or unit segment before is no street. */
function englishCore(segments: string[][]): StreetCore | undefined {
  for (let i = 0; i < segments.length; i++) {
    const w = segments[i]!;
    if (w.length === 0 || UNIT_WORDS.has(w[0]!) || !HOUSE_NUMBER.test(w[0]!)) continue;
    const rest = w.length > 1 ? w.slice(1) : (segments[i + 1] ?? []);
    const name = rest.filter((x) => !LINKS.has(x)).map((x, k, all) => (k === all.length - 1 ? (EN_TYPES[x] ?? x) : x));
    if (name.length === 0 || name.some((x) => /\d/.test(x))) return undefined;
    return { key: `${w[0]} ${name.join(' ')}`, name, number: w[0]!, numberFirst: true };
  }
  return undefined;
}

/** The key an address candidate gets: its street core, or its folded text when it has none. */
export function addressKey(raw: string): string {
  return streetCore(raw)?.key ?? fold(raw).replace(/\s+/g, ' ').trim();
}

/**
 * Short forms of the trace's addresses elsewhere in it: "25 Queensway" where "Apartment 39, Belmont Lodge, 25
 * Queensway, Derby DE1 5LD" was found, "Isabel la Católica, 111" where "Ronda de Isabel la Católica, 111, piso 9" was.
 * Each gets the key of the address it is a form of. Addresses are few per trace: one pattern per street.
 */
export function findShortAddresses(texts: string[], found: Candidate[][]): Candidate[][] {
  const cores = new Map<string, StreetCore>();
  for (const cands of found) {
    for (const c of cands) {
      if (c.type !== 'ADDRESS' || cores.has(c.normalized)) continue;
      const core = streetCore(c.normalized);
      if (core) cores.set(c.normalized, core);
    }
  }
  if (cores.size === 0) return found;
  const patterns = [...cores.values()].map((core) => ({ core, pattern: shortFormPattern(core) }));
  return texts.map((text, f) => {
    let own = found[f]!;
    const folded = fold(text);
    const extra: Candidate[] = [];
    for (const { core, pattern } of patterns) {
      if (!folded.includes(core.name[0]!)) continue;
      pattern.lastIndex = 0;
      for (let m = pattern.exec(folded); m !== null; m = pattern.exec(folded)) {
        const s = m.index + m[1]!.length;
        const e = m.index + m[0].length;
        if (extra.some((c) => c.start < e && s < c.end)) continue;
        // A street named after a person ("Isabel la Católica, 111") is the street: the name inside it goes.
        const inside = own.filter((c) => c.start < e && s < c.end);
        if (inside.some((c) => c.type !== 'PERSON' || c.start < s || c.end > e)) continue;
        if (inside.length > 0) own = own.filter((c) => !inside.includes(c));
        extra.push({ type: 'ADDRESS', start: s, end: e, score: 0.85, normalized: core.key });
      }
    }
    return extra.length === 0 ? own : [...own, ...extra].sort((a, b) => a.start - b.start);
  });
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const LINK = `(?:(?:${[...LINKS].join('|')})\\s+)*`;
const ES_TYPE_WORD = `(?:${Object.keys(ES_TYPES).map(escape).join('|')})\\.?\\s+`;
const EN_TYPE_WORD = `(?:${[...Object.keys(EN_TYPES), ...Object.values(EN_TYPES)].map(escape).join('|')})\\.?`;

/**
 * The short forms of a street on folded text. English: the number, an optional comma, the name, an optional street
 * type ("25 queensway", "214, tanners hill", "2721 birchwood st"). Spanish: an optional street type, the name, an
 * optional comma or "nº", the number ("isabel la catolica, 111", "avda. andalucia nº 42"). Group 1 is what stands
 * before the address (a boundary).
 */
function shortFormPattern(core: StreetCore): RegExp {
  const between = `\\s+${LINK}`;
  const number = escape(core.number);
  let body: string;
  if (core.numberFirst) {
    // The last word may be the street type, written out or not ("birchwood street", "birchwood st.").
    const last = core.name[core.name.length - 1]!;
    const words = [...core.name.slice(0, -1).map(escape), `(?:${[escape(last), ...enAbbreviations(last)].join('|')})`];
    body = `${number},?\\s{1,2}${LINK}${words.join(between)}(?:\\s${EN_TYPE_WORD})?`;
  } else {
    body = `(?:${ES_TYPE_WORD})?${LINK}${core.name.map(escape).join(between)}\\s*,?\\s*(?:nº\\s*|num\\.?\\s*|#\\s*)?${number}`;
  }
  return new RegExp(`(^|[^\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'gu');
}

/** The abbreviations of an English street type written out ("street" → "st."). */
const enAbbreviations = (word: string): string[] =>
  Object.entries(EN_TYPES)
    .filter(([, full]) => full === word)
    .map(([abbr]) => `${escape(abbr)}\\.?`);
