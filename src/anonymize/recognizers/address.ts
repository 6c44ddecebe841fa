import type { Candidate, Recognizer } from '../types.js';
import { foldWindow, hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';
import { keywordsOf } from '../text/keywords.js';
import { collapseSpaces, isDigitCode } from '../text/chars.js';
import { addWindow, matchAtStarts, matchInWindowList, matchInWindows, runWindows } from '../text/windows.js';

// Spanish, Catalan and Galician street types, with the capitalised spellings people type.
const ES_TYPE =
  '(?:[Cc]alle|CALLE|[Cc]/|[Cc]l\\.|[Aa]venida|AVENIDA|[Aa]vda\\.?|[Aa]vd\\.|[Aa]v\\.|[Pp]laza|PLAZA|[Pp]za\\.?|Paseo|PASEO|[Pp]º|[Pp]\\.º|Ronda|[Tt]raves[ií]a|[Gg]lorieta|Camino|[Cc]arretera|[Cc]tra\\.?|[Cc]arrer|[Pp]asseig|[Pp]la[çc]a|[Aa]vinguda|[Rr][uú]a|[Uu]rbanizaci[oó]n|[Uu]rb\\.|[Pp]ol[ií]gono|[Cc]allej[oó]n|Cuesta|[Bb]ulevar|Alameda|Pasaje|Rambla|[Tt]ravessera)';
const LINK = "(?:de|del|la|las|los|el|d'|dels|l'|y|i|da|do|dos|das)";
const CAP_WORD = "\\p{Lu}[\\p{L}\\p{M}'’.-]*";
const ANY_WORD = "\\p{L}[\\p{L}\\p{M}'’.-]*";
const NUMBER = '(?:n[º°o]\\.?\\s*|n[uú]m\\.?\\s*|n[uú]mero\\s*)?\\d{1,4}(?:\\s?[A-Za-z](?![\\p{L}]))?';
const ES_TAIL =
  "(?:,?\\s*(?:\\d{1,2}(?:r|n|t|º|ª)\\s?\\d{1,2}(?:a|ª)(?![\\p{L}\\d])|\\d{1,2}\\.?\\s?[º°ª]\\s?(?:[A-Za-z](?![\\p{L}])|\\d{1,2}(?![\\d]))?|[Pp]iso\\s\\d{1,2}|[Pp]lanta\\s\\d{1,2}|[Pp]uerta\\s[\\p{L}\\d]{1,3}|[Ee]sc(?:alera|\\.)?\\s?[\\p{L}\\d]{1,2}|[Bb]ajo(?:\\s[A-Za-z](?![\\p{L}]))?|[ÁAáa]tico|[Dd]cha\\.?|[Ii]zd?a\\.?|[Ii]zq\\.?|[Bb]loque\\s[\\p{L}\\d]{1,3}|[Pp]ortal\\s[\\p{L}\\d]{1,3})){0,4}";
const POSTCODE_CITY = "(?:,?\\s*(?:\\d{5}|(?:CP|C\\.P\\.)\\s?\\d{5})(?:\\s*[,-]?\\s*\\p{Lu}[\\p{L}\\p{M}'’-]*(?:\\s(?:de\\s|del\\s|la\\s|el\\s)?\\p{Lu}[\\p{L}\\p{M}'’-]*){0,2})?)?(?:\\s?\\(\\p{Lu}[\\p{L}\\p{M}]*(?:\\s\\p{Lu}[\\p{L}\\p{M}]*)?\\))?";

function spanish(word: string): RegExp {
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${ES_TYPE}\\s*(?:${LINK}\\s+){0,3}${word}(?:\\s+(?:${LINK}\\s+){0,2}${word}){0,5},?\\s*${NUMBER}${ES_TAIL}${POSTCODE_CITY}(?![\\p{L}\\p{N}])`,
    // Sticky: tried where a street type starts (keywords.ts).
    'yu',
  );
}
const ES_CAPITALISED = spanish(CAP_WORD);
const ES_ANY_CASE = spanish(ANY_WORD);

/** Spanish postcodes: a province number 01–52, then three digits. */
const ES_POSTCODE = '(?:0[1-9]|[1-4]\\d|5[0-2])\\d{3}';
const ES_PLACE = "\\p{Lu}[\\p{L}\\p{M}'’-]*(?:\\s(?:de\\s(?:la\\s|los\\s|las\\s)?|del\\s|la\\s|el\\s)?\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3}";
/**
 * Spanish addresses written without a street type ("Gran Vía 180, 15027 A Coruña", "Ercilla 24, 3.º B, 48011 Bilbao"):
 * capitalised street words, a house number, then a postcode and a capitalised place. The postcode next to a house
 * number and a place name is the evidence the street type would otherwise give.
 */
const ES_BARE = new RegExp(
  `(?<![\\p{L}\\p{N}])${CAP_WORD}(?:\\s+(?:${LINK}\\s+){0,2}${CAP_WORD}){0,4},?\\s*${NUMBER}${ES_TAIL},?\\s*${ES_POSTCODE}\\s*[,-]?\\s*${ES_PLACE}(?:\\s?\\(\\p{Lu}[\\p{L}\\p{M}]*(?:\\s\\p{Lu}[\\p{L}\\p{M}]*)?\\))?(?![\\p{L}\\p{N}])`,
  'gu',
);
/** Words that start references, not street names: "Pedido 1234, 28014 Madrid" is an order shipped to Madrid. */
const NOT_A_STREET = new Set(
  'pedido pedidos order orders ticket tickets factura invoice ref referencia reference expediente caso case ley law articulo article art version importe total codigo code numero number lote batch serie serial cliente customer cuenta account contrato contract poliza policy tarifa plan modelo model'.split(' '),
);
const firstWordFolded = (s: string) => foldWindow(/^[\p{L}\p{M}'’.-]+/u.exec(s)?.[0] ?? '').replace(/\.$/, '');
const ES_POSTCODE_ALONE = new RegExp(`(?<!\\d)${ES_POSTCODE}(?!\\d)`, 'g');

/**
 * Windows around the postcodes that follow a house number (or floor) closely: a digit, then 1 to 20 characters that
 * are neither digits nor line breaks, then the postcode ("180, 15027", "7.º A, 15048").
 */
function postcodeWindows(text: string, digitRuns: number[], before: number, after: number): number[] {
  const windows: number[] = [];
  // A postcode lies inside a run of at least five digits.
  for (const m of matchInWindowList(text, runWindows(text, digitRuns, 5, 1, 1), ES_POSTCODE_ALONE)) {
    let k = m.index - 1;
    while (k >= 0 && m.index - k <= 21 && !isDigitCode(text.charCodeAt(k)) && text.charCodeAt(k) !== 10) k--;
    if (k < 0 || m.index - k > 21 || !isDigitCode(text.charCodeAt(k))) continue;
    const s = Math.max(0, k - before);
    const e = Math.min(text.length, m.index + m[0].length + after);
    addWindow(windows, s, e);
  }
  return windows;
}

const EN_TYPE =
  '(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Place|Pl|Way|Terrace|Close|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Row|Gardens|Mews|Grove|Walk|Hill|Park)';
const EN = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:Flat|Apt\\.?|Apartment|Unit|Suite)\\s[\\p{L}\\d-]{1,5},?\\s)?\\d{1,5}[A-Za-z]?\\s(?:[NSEW]\\.?\\s)?(?:\\p{Lu}[\\p{L}\\p{M}'’-]*\\s){1,4}${EN_TYPE}\\.?(?:,?\\s(?:Apt|Apartment|Suite|Ste|Unit|Flat|#)\\.?\\s?[\\p{L}\\d-]{1,6})?(?:,\\s\\p{Lu}[\\p{L}'’-]+(?:\\s\\p{Lu}[\\p{L}'’-]+){0,2}(?:\\s\\d{1,2}(?![\\d,.]\\d))?)?(?:,?\\s(?:[A-Z]{2}\\s\\d{5}(?:-\\d{4})?|[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2}|(?:[AC-FHKNPRTV-Y]\\d{2}|D6W)\\s?[0-9AC-FHKNPRTV-Y]{4}))?(?![\\p{L}\\p{N}])`,
  'gu',
);
// Cheap trigger for the English forms: a street type after a capitalised word (Spanish street types: keywords.ts).
const EN_TRIGGER = / (?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Place|Pl|Way|Terrace|Close|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Row|Gardens|Mews|Grove|Walk|Hill|Park)\b/g;
const RESIDENCE_CUE = /\b(?:vivo|vive|viven|domicilio|direccion|envio|enviar|envien|entregar|entrega|mandar|mandad|residencia|reside|address|live|lives|living|ship|deliver|send|mail)\b[^\n]{0,40}$/;

/**
 * Postal addresses: Spanish street forms with a house number (and floor, door, postcode, city), Spanish street names
 * with a number and a postcode but no street type, English "12 Baker Street" forms (UK, US and Irish postcodes).
 */
export const addressRecognizer: Recognizer = {
  name: 'address',
  types: ['ADDRESS'],
  find(text, facts = factsOf(text)) {
    const out: Candidate[] = [];
    // Every form below carries a house number.
    if (facts.digits === 0) return out;
    const starts = new Set<number>();
    const push = (start: number, raw: string, score: number) => {
      if (starts.has(start)) return;
      starts.add(start);
      const value = raw.replace(/[,\s]+$/, '');
      out.push({ type: 'ADDRESS', start, end: start + value.length, score, normalized: collapseSpaces(value.toLowerCase()) });
    };
    const esHits = keywordsOf(text, facts).street;
    for (const m of matchAtStarts(text, esHits, ES_CAPITALISED)) push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
    // Lower-case street names ("vivo en calle mayor 12") only count after a residence cue.
    for (const m of matchAtStarts(text, esHits, ES_ANY_CASE)) push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.85 : 0.4);
    if (facts.maxDigitRun >= 5) {
      for (const m of matchInWindowList(text, postcodeWindows(text, facts.digitRuns, 120, 60), ES_BARE)) {
        // Inside an address already found with its street type ("C/ Mayor 23, …" holds "Mayor 23, …").
        if (NOT_A_STREET.has(firstWordFolded(m[0])) || out.some((c) => c.start <= m.index && m.index < c.end)) continue;
        push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
      }
    }
    for (const m of matchInWindows(text, EN_TRIGGER, EN, 90, 90)) push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
    return out;
  },
};
