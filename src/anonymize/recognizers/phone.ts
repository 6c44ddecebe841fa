import { before } from '../text/context.js';
import { insideIbanShape } from '../text/iban-shape.js';
import { digitsOf, isDigitCode } from '../text/chars.js';
import { execAll } from '../text/exec-all.js';
import { factsOf } from '../text/facts.js';
import { trailingQuantity } from '../text/quantity.js';
import { matchInWindowList, runWindows } from '../text/windows.js';
import type { Candidate, Recognizer } from '../types.js';
import { createPhoneValidator, type PhoneVerdict } from '../validators/phone-number.js';

// Digits with the usual separators, an optional +CC / 00CC prefix and parentheses; 7 to 15 digits are checked below.
// A time after the digits ("2024-11-07 23:04") makes them a timestamp.
const PATTERN =
  /(?<![\p{L}\p{N}_/=+.,-])(?:\(?(?:\+|00)\d{1,4}\)?[ .-]?)?\(?\d[\d .()-]{5,20}\d(?![\p{L}\p{N}_]|[./,:-]\d)/gu;
const DATE_OR_NUMBER =
  /^(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?|\d+\.\d+(?:\.\d+)+|\d{1,2}[:.]\d{2}(?:[:.]\d{2})?|\d{5,}[.,]\d{1,2})$/;
/** Dotted numbers after an IP word are (mistyped) addresses: "no son IP válidas: 967.67.46.51". */
const IP_CUE = /\b(?:ip|ips|ipv4|host|server|servidor|direcciones ip|address(?:es)?)\b/;
/** A calendar date at the start ("2024-11-07 23", "26-05-2023 10"): a timestamp, not a phone. */
const DATE_FIRST =
  /^(?:\d{4}[./-](?:0?[1-9]|1[0-2])[./-](?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])[./-](?:0?[1-9]|1[0-2])[./-](?:\d{4}|\d{2}))\s/;
/**
 * Dot-separated numbers are phones when grouped as phones are ("612.345.678", "917.71.07.36", "404.555.0194",
 * "06.12.34.56.78", "33.4343.1821"): three or more groups of 2 to 4 digits. Versions ("3.19.16.875"), thousands
 * ("1.234.567") and dotted quads that could be IPv4 addresses are not.
 */
function dottedPhone(raw: string): boolean {
  const groups = raw
    .replace(/^\(?(?:\+|00)\d{1,4}\)?[ .-]?/, '')
    .split(/[ .()-]+/)
    .filter((g) => g !== '');
  if (groups.length < 3 || groups.some((g) => g.length < 2 || g.length > 4)) return false;
  return !(groups.length === 4 && groups.every((g) => g.length <= 3 && Number(g) <= 255));
}
const PHONE_CUE =
  /\b(?:tel|telf|tfno|tlf|telefono|movil|celular|llama|llamar|llamame|contacto|whatsapp|phone|mobile|cell|call|fax|sms|contact|reach|mi numero|my number|su numero|your number|numero de contacto|numero movil|numero de movil)/g;
const OTHER_NUMBER_CUE =
  /\b(?:pedido|order|ticket|ref|referencia|reference|factura|invoice|expediente|localizador|tracking|seguimiento|contrato|poliza|policy|albaran|incidencia|caso|case|cliente n|customer n|account n|id\b|serie|serial|lote|batch|importe|amount|total|precio|price|codigo|code|cp\b|build|version|release|v)\b/g;
const MONEY_AFTER = /^\s?(?:€|eur|euros?|usd|\$|£|%|dolares|dollars)/i;

/** Number types that reach a service, never a person: 900/800 and 0800 free-phone, 901/902 and 0845 shared-cost, 0300 UAN, premium rate. */
export const SERVICE_TYPES = new Set(['TOLL_FREE', 'SHARED_COST', 'UAN', 'PREMIUM_RATE']);

/** Calling codes of regions whose national numbers, service lines included, are written with a leading trunk 0 (GB, FR, DE, AR, PE). */
const TRUNK_ZERO = /^\+(?:44|33|49|54|51)/;

export interface PhoneRecognizerOptions {
  /** ISO 3166 alpha-2 regions tried in order for numbers written without an international prefix. */
  regions: string[];
}

/**
 * Phone numbers validated on libphonenumber-js metadata (full per-type patterns) over the configured regions, normalised
 * to E.164. Service numbers (free-phone, shared-cost, premium, UAN) are not personal data and are left as written.
 */
export function createPhoneRecognizer(options: PhoneRecognizerOptions): Recognizer {
  const reader = createPhoneReader(options.regions);
  return {
    name: 'phone',
    types: ['PHONE'],
    find(text, facts = factsOf(text)) {
      const out: Candidate[] = [];
      if (facts.maxDigitRun < 7) return out;
      // A phone lies inside one run of digits and number punctuation: the pattern sees those runs (and the characters its lookarounds read).
      for (const m of matchInWindowList(text, runWindows(text, facts.digitRuns, 7, 1, 2), PATTERN)) {
        const raw = withoutTrailingQuantity(text, m.index, m[0]);
        const digits = digitsOf(raw);
        if (digits.length < 7 || digits.length > 15 || DATE_FIRST.test(raw)) continue;
        if (
          DATE_OR_NUMBER.test(raw) &&
          !(
            raw.includes('.') &&
            !raw.includes(',') &&
            (international(raw) || (dottedPhone(raw) && !IP_CUE.test(before(text, m.index, 40))))
          )
        )
          continue;
        const start = m.index;
        const end = start + raw.length;
        // Written nationally, numbers of the configured regions have 9 to 12 digits (13 with a trunk 0 and the
        // Argentine mobile 15: "011 15-2371-4269"); shorter runs are codes and branches.
        if (!international(raw) && (digits.length > (digits[0] === '0' ? 13 : 12) || digits.length < 9)) continue;
        if (insideIbanShape(text, start, facts.ibanStarts)) continue;
        if (MONEY_AFTER.test(text.slice(end, end + 8))) continue;
        const verdict = reader.read(raw);
        // Free-phone, shared-cost and premium service lines belong to organisations: the judge may need them as written.
        if (verdict === undefined || SERVICE_TYPES.has(verdict.type ?? '')) continue;
        const candidate: Candidate = {
          type: 'PHONE',
          start,
          end,
          score: scoreFor(text, start, raw),
          normalized: verdict.e164,
        };
        if (!international(raw)) candidate.alternatives = () => reader.alternatives(raw);
        out.push(candidate);
      }
      return out;
    },
  };
}

/** Phone numbers read as the recognizer reads them: validated in the configured regions, one region preferred. */
export interface PhoneReader {
  /** The E.164 form and type of a valid number (see preferredReading), or undefined. */
  read(raw: string): PhoneVerdict | undefined;
  /** Every E.164 form a nationally written number has in the configured regions. */
  alternatives(raw: string): string[];
}

export function createPhoneReader(regions: string[]): PhoneReader {
  const validator = createPhoneValidator(regions);
  // Recent verdicts: the same numbers recur across the fields of a trace and across traces.
  const cache = new Map<string, PhoneVerdict | null>();
  const validateCached = (raw: string): PhoneVerdict | undefined => {
    const hit = cache.get(raw);
    if (hit !== undefined) return hit ?? undefined;
    let result = validator.validate(raw);
    if (result !== undefined && !international(raw))
      result = preferredReading(result, raw, digitsOf(raw), () => validator.validateAll(raw));
    if (cache.size >= 2000) cache.clear();
    cache.set(raw, result ?? null);
    return result;
  };
  return {
    read: validateCached,
    alternatives: (raw) => validator.validateAll(raw).map((v) => v.e164),
  };
}

/**
 * Which region a nationally written number belongs to when several read it. A reading in a region whose numbers are
 * written with a trunk 0 ("07209 854269" in the UK) of a number written without it ("720.985.4269", "55 1234 5678")
 * gives way to another region's; a UAN (a UK 03 number) gives way to a personal line elsewhere ("(0341) 594-7879",
 * Rosario; written "0300 123 4567" it stays the UK's). Free-phone, shared-cost and premium prefixes are distinctive and keep their reading.
 */
function preferredReading(
  verdict: PhoneVerdict,
  raw: string,
  digits: string,
  all: () => PhoneVerdict[],
): PhoneVerdict | undefined {
  const noTrunk = digits[0] !== '0' && TRUNK_ZERO.test(verdict.e164);
  // UK numbers are grouped with spaces ("0300 123 4567"); an area code in brackets or dashes is another region's style.
  if (!noTrunk && !(verdict.type === 'UAN' && /[()-]/.test(raw))) return verdict;
  const others = all().filter((v) => v.e164 !== verdict.e164 && !(digits[0] !== '0' && TRUNK_ZERO.test(v.e164)));
  const personal = others.find((v) => !SERVICE_TYPES.has(v.type ?? ''));
  if (!noTrunk) return personal ?? verdict;
  const other = personal ?? others[0];
  // German and French numbers are never written nationally without their 0: "611 22 33 44 48" is a Spanish phone
  // followed by another number, not a Wiesbaden line.
  return other ?? (NEVER_WITHOUT_TRUNK.test(verdict.e164) ? undefined : verdict);
}
const NEVER_WITHOUT_TRUNK = /^\+(?:49|33)/;

/** "020 8724 4224 2 attempts": the last group is a quantity written after the number, not part of it. */
function withoutTrailingQuantity(text: string, start: number, raw: string): string {
  const blank = raw.lastIndexOf(' ');
  if (blank < 0 || !trailingQuantity(text, start + blank + 1, start + raw.length)) return raw;
  return raw.slice(0, blank).trimEnd();
}

/** Written with an international prefix: "+…", "(+…" or "00…". */
const international = (raw: string) => raw[0] === '+' || raw.startsWith('(+') || raw.startsWith('00');

function scoreFor(text: string, start: number, raw: string): number {
  const formatted = international(raw) || raw[0] === '(' || /[ .()-]/.test(raw);
  let score = formatted ? 0.75 : 0.65;
  const window = before(text, start, 40);
  const phoneAt = lastMatch(window, PHONE_CUE);
  const otherAt = lastMatch(window, OTHER_NUMBER_CUE);
  // "+34 …", "0034 …" or a parenthesis not followed by a digit ("(+34) …") still reads as a phone after an order cue.
  if (otherAt > phoneAt)
    score =
      (raw[0] === '+' || raw[0] === '(' || raw.startsWith('00')) && !(raw[0] === '(' && isDigitCode(raw.charCodeAt(1)))
        ? 0.6
        : 0.3;
  else if (phoneAt >= 0) score += 0.2;
  return Math.round(score * 100) / 100;
}

function lastMatch(window: string, pattern: RegExp): number {
  let last = -1;
  pattern.lastIndex = 0;
  for (const m of execAll(pattern, window)) last = m.index;
  return last;
}
