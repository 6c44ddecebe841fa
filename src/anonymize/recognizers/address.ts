import { addressKey } from '../address-forms.js';
import type { Candidate, Recognizer } from '../types.js';
import { foldWindow, hasCueBefore } from '../text/context.js';
import { factsOf } from '../text/facts.js';
import { keywordsOf } from '../text/keywords.js';
import { isDigitCode, isUpperCode } from '../text/chars.js';
import { fold } from '../text/fold.js';
import { addWindow, matchAtStarts, matchInWindowList, matchInWindows, runWindows } from '../text/windows.js';

// Spanish, Catalan and Galician street types, with the capitalised spellings people type.
const ES_TYPE =
  '(?:[Cc]alle|CALLE|[Cc]/\\.?|[Cc]l\\.|[Aa]venida|AVENIDA|[Aa]vda\\.?|[Aa]vd\\.|[Aa]v\\.|[Pp]laza|PLAZA|[Pp]za\\.?|Paseo|PASEO|[Pp]º|[Pp]\\.º|Ronda|[Rr]da\\.|[Tt]raves[ií]a|[Tt]rav\\.|[Gg]lorieta|[Gg]ta\\.|Camino|[Cc]arretera|[Cc]tra\\.?|[Cc]arrer|[Pp]asseig|[Pp]la[çc]a|[Aa]vinguda|[Rr][uú]a|[Uu]rbanizaci[oó]n|[Uu]rb\\.|[Pp]ol[ií]gono|[Cc]allej[oó]n|Cuesta|[Bb]ulevar|[Bb]v\\.|[Bb]lvd\\.|Alameda|Pasaje|[Pp]je\\.|Rambla|[Tt]ravessera|[Cc]alzada|CALZADA|[Cc]alz\\.|[Jj]ir[oó]n|[Jj]r\\.|[Pp]rolongaci[oó]n|[Pp]rol\\.|[Cc]arrera|[Cc]ra\\.|[Kk]r\\.|[Dd]iagonal|[Tt]ransversal)';
const LINK = "(?:de|del|la|las|los|el|d'|dels|l'|y|i|da|do|dos|das)";
const CAP_WORD = "\\p{Lu}[\\p{L}\\p{M}'’.-]*";
const ANY_WORD = "\\p{L}[\\p{L}\\p{M}'’.-]*";
// "12", "n.º 16", "nº 100", "núm. 8", "# 58-51".
// "s/n" (no number), "km 12", "parcela 14" too.
const NUMBER =
  '(?:(?:n\\.?\\s?[º°o]\\.?\\s*|n[uú]m\\.?\\s*|n[uú]mero\\s*|#\\s*|km\\.?\\s?|[Pp]arcela\\s|[Nn]ave\\s|[Ll]ote\\s|[Mm]anzana\\s)?\\d{1,4}(?:\\s?-\\s?\\d{1,4})?(?:\\s?[A-Za-z](?![\\p{L}]))?|[Ss]/[Nn](?![\\p{L}\\d]))';
// Floor, door, staircase and Latin American unit: "3.º B", "4º 2ª", "2ª planta", "piso 8", "pta. 12", "esc. 1", "bajo A", "dto. B",
// "apto. 499", "int. B", "of. 629"; after a comma or " - " ("Calle Real, 14 - 2º Dcha.").
const ES_TAIL =
  '(?:(?:,|\\s-)?\\s*(?:\\d{1,2}(?:r|n|t|º|ª)\\s?\\d{1,2}(?:a|ª)(?![\\p{L}\\d])|\\d{1,2}\\.?\\s?[º°ª]\\s?(?:[Pp]lanta(?![\\p{L}])|[A-Za-z](?![\\p{L}])|\\d{1,2}\\s?[ª]?(?![\\d]))?|[Pp]iso\\s\\d{1,2}(?:\\.?\\s?[º°ª])?(?:\\s[A-Za-z](?![\\p{L}]))?|[Pp]lanta\\s\\d{1,2}|[Pp]uerta\\s[\\p{L}\\d]{1,3}|[Pp]ta\\.?\\s?[\\p{L}\\d]{1,3}(?![\\p{L}\\d])|[Ee]sc(?:alera|\\.)?\\s?[\\p{L}\\d]{1,2}(?![\\p{L}\\d])|[Bb]ajo(?:\\s[A-Za-z](?![\\p{L}]))?|[ÁAáa]tico(?:\\s[A-Za-z](?![\\p{L}]))?|[Dd]cha\\.?|[Ii]zd?a\\.?|[Ii]zq\\.?|[Bb]loque\\s[\\p{L}\\d]{1,3}|[Pp]ortal\\s[\\p{L}\\d]{1,3}|(?:[Dd]e?pto|[Dd]to|[Aa]pto|[Aa]pt|[Ii]nt|[Oo]f|[Oo]ficina|[Ll]ocal|[Cc]asa|[Dd]epartamento)\\.?\\s?[\\p{L}\\d]{1,5}(?![\\p{L}\\d]))){0,4}';
/** A place word: capitalised, not a lone letter ("A Coruña" aside), not the label of the next field ("…, Madrid, NIE …"). */
const PLACE_WORD =
  "(?!(?:NIE|NIF|DNI|CIF|IBAN|Tel|Telf|Tfno|Tlf|Fax|Email|E-mail|Correo|M[oó]vil|Tel[eé]fono|Ref|Cita|Fecha|Hora|Paciente|Titular)(?![\\p{L}]))\\p{Lu}(?:[\\p{L}\\p{M}'’-]+|(?=\\s\\p{Lu}\\p{Ll}))";
// "Castelló de la Plana", "San Sebastián de los Reyes", "Donostia/San Sebastián": up to two links, or a slash.
const PLACE = `${PLACE_WORD}(?:(?:\\s(?:(?:de|del|la|las|los|el)\\s){0,2}|\\s?/\\s?)${PLACE_WORD}){0,3}`;
/** Spanish and Mexican 5-digit postcodes (also as "C.P. 59817"), Argentine CPA codes ("C5407BCE", "X2091"). */
const POSTCODE = '(?:\\d{5}|(?:CP|C\\.P\\.)\\s?\\d{5}|[A-Z]\\d{4}(?:[A-Z]{3})?(?![\\p{L}\\d]))';
const SEGMENT = `(?:${POSTCODE}(?:\\s*[,-]?\\s*${PLACE})?|(?:Col\\.|Colonia|Barrio|Bº)\\s${PLACE}|${PLACE})`;
/** Postcode, town, district and province after the number: "28012 Madrid", ", Chapinero, Santiago", ", Col. Obispado, C.P. 59817, Ciudad de México". */
const POSTCODE_CITY = `(?:,?\\s*${POSTCODE}(?:\\s*[,-]?\\s*${PLACE})?)?(?:,\\s*${SEGMENT}){0,3}(?:\\s?\\(${PLACE}\\))?`;

/** Latin American grid streets: "Calle 10 # 58-51", "Carrera 15 # 29-65", "Diagonal 40A Sur # 12-30". */
const GRID_STREET = '\\d{1,3}[A-Z]?(?:\\s(?:[Bb]is|[Ss]ur|[Nn]orte|[Ee]ste|[Oo]este))?(?=\\s*(?:#|[Nn]o\\.|N[º°]))';

function spanish(word: string): RegExp {
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${ES_TYPE}\\s*(?:(?:${LINK}\\s+){0,3}${word}(?:\\s+(?:${LINK}\\s+){0,2}${word}){0,5}|${GRID_STREET}),?\\s*${NUMBER}${ES_TAIL}${POSTCODE_CITY}(?![\\p{L}\\p{N}])`,
    // Sticky: tried where a street type starts (keywords.ts).
    'yu',
  );
}
const ES_CAPITALISED = spanish(CAP_WORD);
const ES_ANY_CASE = spanish(ANY_WORD);

/** Spanish postcodes: a province number 01–52, then three digits. */
const ES_POSTCODE = '(?:0[1-9]|[1-4]\\d|5[0-2])\\d{3}';
const ES_PLACE =
  "\\p{Lu}[\\p{L}\\p{M}'’-]*(?:\\s(?:de\\s(?:la\\s|los\\s|las\\s)?|del\\s|la\\s|el\\s)?\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3}";
/**
 * Spanish addresses written without a street type ("Gran Vía 180, 15027 A Coruña", "Ercilla 24, 3.º B, 48011 Bilbao"):
 * capitalised street words, a house number, then a postcode and a capitalised place. The postcode next to a house
 * number and a place name is the evidence the street type would otherwise give.
 */
const ES_BARE = new RegExp(
  `(?<![\\p{L}\\p{N}])${CAP_WORD}(?:\\s+(?:${LINK}\\s+){0,2}${CAP_WORD}){0,4}(?:,\\s*|\\s+)${NUMBER}${ES_TAIL}(?:,\\s*|\\s+)${ES_POSTCODE}\\s*[,-]?\\s*${ES_PLACE}(?:\\s?\\(\\p{Lu}[\\p{L}\\p{M}]*(?:\\s\\p{Lu}[\\p{L}\\p{M}]*)?\\))?(?![\\p{L}\\p{N}])`,
  'gu',
);
/** Words that start references, not street names: "Pedido 1234, 28014 Madrid" is an order shipped to Madrid. */
const NOT_A_STREET = new Set(
  'pedido pedidos order orders ticket tickets factura invoice ref referencia reference expediente caso case ley law articulo article art version importe total codigo code numero number lote batch serie serial cliente customer cuenta account contrato contract poliza policy tarifa plan modelo model'.split(
    ' ',
  ),
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

const EN_TYPES =
  'Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Place|Pl|Way|Terrace|Close|Crescent|Square|Sq|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Row|Gardens|Mews|Grove|Walk|Hill|Park|Yard|Wharf|Quay|Bend|Rise|View|Green|Gate|Trail|Loop|Pike|Alley|Parade|Vale|Heights|Meadows?|Croft|Broadway|Embankment|Passage|Esplanade|Crossing|Ridge|Point|Run|Hollow|Glen|Plaza|Cove|Landing|Expressway|Turnpike';
const EN_TYPE = `(?:${EN_TYPES})`;
/** A US state's code alone after the town ("Spokane, WA"): the ZIP code is often left out. */
const US_STATE =
  '(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)';
/** "Flat 26, Belmont Lodge, ", "Apartment 20, The Maltings, ": the unit, then the building's name. */
const EN_UNIT =
  "(?:(?:Flat|Apt\\.?|Apartment|Unit|Suite|Room|Studio)\\s[\\p{L}\\d-]{1,5},?\\s(?:(?:The\\s)?\\p{Lu}[\\p{L}'’-]+(?:\\s\\p{Lu}[\\p{L}'’-]+){0,3},\\s)?)";
const UK_POSTCODE_FORM = '[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2}';
const UK_POSTCODE = new RegExp(`(?<![A-Za-z0-9])${UK_POSTCODE_FORM}(?![A-Za-z0-9])`, 'g');
const EN_BARE = new RegExp(
  `(?<![\\p{L}\\p{N}])${EN_UNIT}?\\d{1,5}[A-Za-z]?\\s(?:\\p{Lu}[\\p{L}\\p{M}'’-]*\\s?){1,3},\\s\\p{Lu}[\\p{L}'’-]+(?:\\s\\p{Lu}[\\p{L}'’-]+){0,2},?\\s${UK_POSTCODE_FORM}(?![\\p{L}\\p{N}])`,
  'gu',
);
const EN = new RegExp(
  `(?<![\\p{L}\\p{N}])${EN_UNIT}?\\d{1,5}[A-Za-z]?\\s(?:[NSEW]\\.?\\s)?(?:\\p{Lu}[\\p{L}\\p{M}'’-]*\\s){1,4}${EN_TYPE}\\.?(?:,?\\s(?:Apt|Apartment|Suite|Ste|Unit|Flat|#)\\.?\\s?[\\p{L}\\d-]{1,6})?(?:,\\s\\p{Lu}[\\p{L}'’-]+(?:\\s\\p{Lu}[\\p{L}'’-]+){0,2}(?:\\s\\d{1,2}(?![\\d,.]\\d))?)?(?:,?\\s(?:[A-Z]{2}\\s\\d{5}(?:-\\d{4})?|${US_STATE}(?![\\p{L}\\p{N}])|[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2}|(?:[AC-FHKNPRTV-Y]\\d{2}|D6W)\\s?[0-9AC-FHKNPRTV-Y]{4}))?(?![\\p{L}\\p{N}])`,
  'gu',
);
// Cheap trigger for the English forms: a street type after a capitalised word (Spanish street types: keywords.ts).
const EN_TRIGGER = new RegExp(` (?:${EN_TYPES})\\b`, 'g');
const RESIDENCE_CUE =
  /\b(?:vivo|vive|viven|domicilio|direccion|envio|enviar|envien|entregar|entrega|mandar|mandad|residencia|reside|address|live|lives|living|ship|deliver|send|mail)\b[^\n]{0,40}$/;

/** Words that name a public place or an organisation's premises: an address right after one is theirs. */
const PUBLIC_PLACE_WORDS =
  'museo|museum|centro|center|centre|hospital|clinica|universidad|university|biblioteca|library|ayuntamiento|town hall|city hall|ministerio|ministry|embajada|embassy|consulado|consulate|oficinas?|offices?|sede|headquarters|hq|teatro|theatre|theater|estadio|stadium|aeropuerto|airport|estacion|station|parlamento|parliament|tribunal|court|juzgado|registro|registry|agencia|agency|instituto|institute|fundacion|foundation|gallery|galeria|palacio|palace|catedral|cathedral|iglesia|church|colegio|school|college|mercado|market|hotel|tienda|store|shop|branch|sucursal|institution|moneda|cultural|art|arte';
const PUBLIC_PLACE = new RegExp(`\\b(?:${PUBLIC_PLACE_WORDS})\\b[^\\n.;:]{0,60}$`);

/**
 * Before `start`: an organisation's or public place's name, then "(", "," or "at"/"en" ("the Metropolitan Museum
 * of Art (1000 Fifth Avenue, …)", "el Centro Cultural La Moneda (Plaza de la Ciudadanía 26, Santiago)").
 */
function publicPlaceBefore(text: string, start: number): boolean {
  let k = start;
  while (k > 0 && /[\s(,]/.test(text[k - 1]!)) k--;
  if (k === start && text[k - 1] !== '(') return false;
  const sep = text.slice(k, start);
  if (!/[(,]/.test(sep)) {
    const before = text.slice(Math.max(0, k - 4), k).toLowerCase();
    if (!/\b(?:at|en|in)$/.test(before)) return false;
  }
  return PUBLIC_PLACE.test(foldWindow(text.slice(Math.max(0, k - 70), k)));
}

/**
 * An institution's or public place's name (one of PUBLIC_PLACE's words, capitalised, in a name: "the Hunterian
 * Gallery", "el Museo de la Ciencia") near the address, with nothing between them that points at a person's home (a
 * residence word, a holder, a customer, "my"):
 * - earlier on its line, at most 200 characters back ("Opening hours of the X Museum: 10-17. You will find the desk
 *   at …", "Atención en el Centro Y. Dirección: …");
 * - on the line before, as a letterhead: a short line naming it, then the address opening the next line;
 * - right after it on its line ("…, 28001 Madrid (sede del Museo Y)", "… — Biblioteca Z"), unless the words before
 *   the address say it is someone's ("Mi domicilio es …, cerca del Museo Y");
 * - or at its start, when a street form without a type took the name in ("Ayuntamiento de Z. Plaza Mayor 1, …").
 */
function institutionNear(text: string, start: number, end: number): boolean {
  // A bare street form that took the institution's name in ("Ayuntamiento de Teruel. Plaza de la Catedral 1, …").
  if (INSTITUTION_START.test(fold(text.slice(start, start + 40)))) return true;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  // The line before counts as a letterhead only: the address opens its line and that line is a short name.
  const previousLine = lineStart > 0 ? text.lastIndexOf('\n', lineStart - 2) + 1 : lineStart;
  const letterhead = lineStart > 0 && /^\s*$/.test(text.slice(lineStart, start)) && lineStart - previousLine <= 60;
  const from = Math.max(letterhead ? previousLine : lineStart, start - 200);
  if (start - from >= 6) {
    const window = fold(text.slice(from, start));
    const last = lastInstitution(text, from, window);
    if (last >= 0 && !PERSONAL_CUE.test(window.slice(last))) return true;
  }
  const lineEnd = text.indexOf('\n', end);
  const after = text.slice(end, Math.min(lineEnd < 0 ? text.length : lineEnd, end + 60));
  const m = /^\s*(?:[(—–-]|,\s*(?:sede|donde|where|home|headquarters|seat))/u.exec(after);
  // Not when the line before the address already says whose it is ("Mi domicilio es …, cerca del Museo Y").
  if (
    !m ||
    PERSONAL_CUE.test(fold(text.slice(lineStart, start))) ||
    RESIDENCE_WORD.test(fold(text.slice(lineStart, start)))
  )
    return false;
  const window = fold(after);
  const first = firstInstitution(text, end, window);
  return first >= 0 && !PERSONAL_CUE.test(window.slice(0, first));
}

function lastInstitution(text: string, from: number, window: string): number {
  let last = -1;
  INSTITUTION_WORD.lastIndex = 0;
  for (let m = INSTITUTION_WORD.exec(window); m !== null; m = INSTITUTION_WORD.exec(window)) {
    if (isUpperCode(text.charCodeAt(from + m.index)) && inAName(text, from + m.index, from + m.index + m[0].length))
      last = m.index + m[0].length;
  }
  return last;
}

function firstInstitution(text: string, from: number, window: string): number {
  INSTITUTION_WORD.lastIndex = 0;
  for (let m = INSTITUTION_WORD.exec(window); m !== null; m = INSTITUTION_WORD.exec(window)) {
    if (isUpperCode(text.charCodeAt(from + m.index)) && inAName(text, from + m.index, from + m.index + m[0].length))
      return m.index;
  }
  return -1;
}
/** The word at [start, end) is part of a proper name: a capitalised word before it or after it (over "de la", "of the"), not a label ("Oficina:"). */
function inAName(text: string, start: number, end: number): boolean {
  return (
    /\p{Lu}[\p{L}\p{M}'’-]*\s$/u.test(text.slice(Math.max(0, start - 30), start)) ||
    /^\s(?:(?:de|del|la|las|los|of|the|for)\s)*\p{Lu}/u.test(text.slice(end, end + 30))
  );
}
const INSTITUTION_START = new RegExp(`^(?:${PUBLIC_PLACE_WORDS}|casa)\\b`);
const INSTITUTION_WORD = new RegExp(`\\b(?:${PUBLIC_PLACE_WORDS}|casa)\\b`, 'g');
const RESIDENCE_WORD = /\b(?:direccion|address|domicilio|vivo|vive|live|lives)\b/;
const PERSONAL_CUE =
  /\b(?:domicilio|vivo|vive|viven|vivimos|reside|residencia|home|house|titular|cliente|clienta|customer|client|applicant|solicitante|paciente|patient|tenant|inquilin[oa]|deliver|delivery|entregar|entrega|enviar|envio|envie|send|ship|shipping|my|mi|mis|our|nuestr[oa]s?)\b/;

const ABBREVIATION_BEFORE_DOT =
  /(?:^|[^\p{L}])(?:St|Rd|Ave?|Ln|Dr|Blvd|Ct|Pl|Sq|Pkwy|Hwy|Cir|Ter|Cres|Apt|Ste|Avda|Avd|Av|Pza|Rda|Trav|Ctra|Gta|Pje|Urb|Calz|Cra|Kr|Jr|Prol|Bv|Blvd|Dcha|Izda|Izq|Pta|Esc|Dpto|Dto|Apto|Int|Of|Col|[A-Z])\.$/u;

/** Characters from a street type's start to its house number, at most: six words of a street's name and particles. */
const STREET_TO_NUMBER = 160;

function digitWithin(text: string, from: number, span: number): boolean {
  const end = Math.min(text.length, from + span);
  for (let k = from; k < end; k++) if (isDigitCode(text.charCodeAt(k))) return true;
  return false;
}

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
      // "… Harbour Close." ends a sentence; "… Birchwood St." is the street type's abbreviation.
      let value = raw.replace(/[,\s]+$/, '');
      if (value.endsWith('.') && !ABBREVIATION_BEFORE_DOT.test(value)) value = value.slice(0, -1);
      out.push({
        type: 'ADDRESS',
        start,
        end: start + value.length,
        score,
        normalized: addressKey(value),
      });
    };
    // A street type is followed by its house number: prose ("el camino", "la plaza") has no digit near it.
    const esHits = keywordsOf(text, facts).street.filter((s) => digitWithin(text, s, STREET_TO_NUMBER));
    const capitalised = matchAtStarts(text, esHits, ES_CAPITALISED);
    for (const m of capitalised) push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
    // Lower-case street names ("vivo en calle mayor 12") only count after a residence cue; tried where no
    // capitalised form was found.
    const lowerHits = capitalised.length === 0 ? esHits : esHits.filter((s) => !starts.has(s));
    for (const m of matchAtStarts(text, lowerHits, ES_ANY_CASE))
      push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.85 : 0.4);
    if (facts.maxDigitRun >= 5) {
      for (const m of matchInWindowList(text, postcodeWindows(text, facts.digitRuns, 120, 60), ES_BARE)) {
        // Inside an address already found with its street type ("C/ Mayor 23, …" holds "Mayor 23, …").
        if (NOT_A_STREET.has(firstWordFolded(m[0])) || out.some((c) => c.start <= m.index && m.index < c.end)) continue;
        push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
      }
    }
    for (const m of matchInWindows(text, EN_TRIGGER, EN, 90, 90))
      push(m.index, m[0], hasCueBefore(text, m.index, RESIDENCE_CUE, 50) ? 0.95 : 0.85);
    // "107 Queensway, Derby DE1 5BH": no street type, a UK postcode.
    for (const m of matchInWindows(text, UK_POSTCODE, EN_BARE, 90, 2)) push(m.index, m[0], 0.85);
    // A public place's own address ("the Metropolitan Museum of Art, 1000 Fifth Avenue, …") is not personal data.
    // An institution named near it owns it too, even after "Dirección:" (institutionNear).
    for (const c of out)
      if ((c.score < 0.95 && publicPlaceBefore(text, c.start)) || institutionNear(text, c.start, c.end)) c.score = 0;
    return out;
  },
};
