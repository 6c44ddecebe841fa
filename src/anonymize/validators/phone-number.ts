import { Metadata, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { digitsOf } from '../text/chars.js';

/**
 * Phone number validation on libphonenumber-js metadata ("max": full per-type patterns), with the metadata's
 * regular expressions compiled once. `parsePhoneNumberFromString(…).isValid()` builds a new RegExp from the metadata
 * for every pattern it tries (10–40 µs a number, more than everything else the anonymizer does to a text); this
 * follows the same steps (country calling code, also when typed without its "+", national prefix, country among
 * those sharing a calling code, number types) on compiled patterns, and hands anything outside those steps (national
 * prefix transform rules, international dialling prefixes, non-geographic calling codes) to the library itself. A test compares both on
 * thousands of numbers per region.
 */
export interface PhoneVerdict {
  /** "+34612345678" */
  e164: string;
  /** libphonenumber-js number type ("MOBILE", "FIXED_LINE", "TOLL_FREE", …), when the metadata tells. */
  type: string | undefined;
}

export interface PhoneValidator {
  /** The E.164 form and type of a valid number, or undefined. `raw` is what the recognizer matched: digits, spaces, `.()-`, a leading `+` or `00`. */
  validate(raw: string): PhoneVerdict | undefined;
  /** Every verdict of a nationally written number, one per configured region where it is valid, in region order. */
  validateAll(raw: string): PhoneVerdict[];
}

/** The parts of libphonenumber-js's Metadata class used here (present at run time, not all in its type declarations). */
interface PlanApi {
  callingCode(): string;
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  type(name: string): { pattern(): string | undefined; possibleLengths(): number[] | undefined } | undefined;
  leadingDigits(): string | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  IDDPrefix(): string | undefined;
}
interface MetadataInstance {
  selectNumberingPlan(country: string): void;
  numberingPlan: PlanApi | undefined;
  hasTypes(): boolean;
  hasCountry(country: string): boolean;
  hasCallingCode(code: string): boolean;
  isNonGeographicCallingCode(code: string): boolean;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
}
const METHODS = [
  'selectNumberingPlan',
  'hasTypes',
  'hasCountry',
  'hasCallingCode',
  'isNonGeographicCallingCode',
  'getCountryCodesForCallingCode',
] as const;

const MIN_NSN = 2;
const MAX_NSN = 17;
/** The types libphonenumber-js tries after FIXED_LINE, in its order. */
const NON_FIXED_TYPES = [
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

interface TypePattern {
  name: string;
  pattern: RegExp;
  lengths: number[] | undefined;
}

/** One country's numbering plan with compiled patterns. */
class Plan {
  readonly nsn: RegExp;
  readonly lengths: number[] | undefined;
  readonly fixedLine: TypePattern | undefined;
  readonly types: TypePattern[];
  readonly hasTypes: boolean;
  /** The plan defines MOBILE, and whether with an empty pattern (then fixed-line numbers may be mobile too). */
  readonly mobile: 'none' | 'empty' | 'defined';
  readonly leadingDigits: RegExp | undefined;
  readonly prefixForParsing: RegExp | undefined;
  readonly transformRule: boolean;
  readonly idd: RegExp | undefined;
  readonly callingCode: string;

  constructor(
    readonly country: string,
    metadata: MetadataInstance,
  ) {
    metadata.selectNumberingPlan(country);
    const plan = metadata.numberingPlan!;
    this.callingCode = plan.callingCode();
    this.nsn = new RegExp(`^(?:${plan.nationalNumberPattern()})$`);
    this.lengths = plan.possibleLengths() || undefined;
    this.hasTypes = metadata.hasTypes();
    const compile = (name: string): TypePattern | undefined => {
      const type = plan.type(name);
      const pattern = type?.pattern();
      return type && pattern
        ? { name, pattern: new RegExp(`^(?:${pattern})$`), lengths: type.possibleLengths() || undefined }
        : undefined;
    };
    this.fixedLine = compile('FIXED_LINE');
    this.types = NON_FIXED_TYPES.map(compile).filter((t) => t !== undefined);
    const mobile = plan.type('MOBILE');
    this.mobile = !mobile ? 'none' : mobile.pattern() === '' ? 'empty' : 'defined';
    const leading = plan.leadingDigits();
    this.leadingDigits = leading ? new RegExp(leading) : undefined;
    const prefix = plan.nationalPrefixForParsing();
    this.prefixForParsing = prefix ? new RegExp(`^(?:${prefix})`) : undefined;
    this.transformRule = Boolean(plan.nationalPrefixTransformRule());
    const idd = plan.IDDPrefix();
    this.idd = idd ? new RegExp(idd) : undefined;
  }

  /** getNumberType(): the whole pattern must match, then FIXED_LINE (or FIXED_LINE_OR_MOBILE) or the first other type that does. */
  numberType(nsn: string): string | undefined {
    if (!this.nsn.test(nsn)) return undefined;
    if (this.fixedLine && matchesType(this.fixedLine, nsn)) {
      if (this.mobile !== 'defined') return 'FIXED_LINE_OR_MOBILE';
      const mobile = this.types[0]!;
      return mobile.name === 'MOBILE' && matchesType(mobile, nsn) ? 'FIXED_LINE_OR_MOBILE' : 'FIXED_LINE';
    }
    for (const t of this.types) if (matchesType(t, nsn)) return t.name;
    return undefined;
  }

  hasNumberType(nsn: string): boolean {
    return this.numberType(nsn) !== undefined;
  }

  valid(nsn: string): boolean {
    return this.hasTypes ? this.hasNumberType(nsn) : this.nsn.test(nsn);
  }

  /** checkNumberLength() says TOO_LONG. */
  tooLong(nsn: string): boolean {
    const lengths = this.lengths;
    if (!lengths || lengths.length === 0) return false;
    return lengths[0] !== nsn.length && lengths[0]! <= nsn.length && lengths[lengths.length - 1]! < nsn.length;
  }

  /** checkNumberLength(): only TOO_SHORT and INVALID_LENGTH matter here. */
  impossibleLength(nsn: string): boolean {
    const lengths = this.lengths;
    if (!lengths || lengths.length === 0) return false;
    const n = nsn.length;
    if (lengths[0] === n) return false;
    if (lengths[0]! > n) return true;
    if (lengths[lengths.length - 1]! < n) return false;
    return lengths.indexOf(n, 1) < 0;
  }
}

function matchesType(t: TypePattern, nsn: string): boolean {
  return (t.lengths === undefined || t.lengths.includes(nsn.length)) && t.pattern.test(nsn);
}

const FALLBACK = Symbol('fallback');
type Verdict = PhoneVerdict | undefined | typeof FALLBACK;

const plans = new Map<string, Plan>();
let shared: MetadataInstance | undefined;

let checked = false;

function metadata(): MetadataInstance | undefined {
  if (!checked) {
    checked = true;
    // The CommonJS build of libphonenumber-js has no Metadata export (and a future version may rename a method):
    // then every number goes to the library.
    if (typeof Metadata === 'function') {
      const candidate = new Metadata() as unknown as MetadataInstance;
      if (METHODS.every((m) => typeof candidate[m] === 'function')) shared = candidate;
    }
  }
  return shared;
}

function planFor(country: string): Plan {
  let plan = plans.get(country);
  if (plan === undefined) plans.set(country, (plan = new Plan(country, metadata()!)));
  return plan;
}

/** getCountryByCallingCode(): the one country of the code, or the first whose leading digits or number types fit. */
function countryFor(callingCode: string, nsn: string): string | undefined {
  const countries = metadata()!.getCountryCodesForCallingCode(callingCode);
  if (!countries || countries.length === 0) return undefined;
  if (countries.length === 1) return countries[0];
  for (const country of countries) {
    const plan = planFor(country);
    if (plan.leadingDigits) {
      if (nsn.search(plan.leadingDigits) === 0) return country;
    } else if (plan.hasNumberType(nsn)) return country;
  }
  return undefined;
}

/** extractNationalNumber(): strips the national (trunk) prefix when the rest still looks like a number of the plan. */
function nationalNumber(number: string, plan: Plan): string | typeof FALLBACK {
  if (!plan.prefixForParsing) return number;
  const m = plan.prefixForParsing.exec(number);
  if (m === null) return number;
  const groups = m.length - 1;
  if (groups > 0 && m[groups]) return FALLBACK;
  const stripped = number.slice(m[0].length);
  if (stripped === number) return number;
  if (plan.nsn.test(number) && !plan.nsn.test(stripped)) return number;
  if (plan.lengths) {
    const country = countryFor(plan.callingCode, stripped);
    if ((country ? planFor(country) : plan).impossibleLength(stripped)) return number;
  }
  return stripped;
}

function finish(callingCode: string, selected: Plan, number: string, defaultCountry: string | undefined): Verdict {
  const nsn = nationalNumber(number, selected);
  if (nsn === FALLBACK) return FALLBACK;
  if (nsn.length < MIN_NSN || nsn.length > MAX_NSN) return undefined;
  const country = countryFor(callingCode, nsn) ?? defaultCountry;
  const plan = country ? planFor(country) : selected;
  const type = plan.numberType(nsn);
  if (plan.hasTypes ? type === undefined : !plan.nsn.test(nsn)) return undefined;
  return { e164: `+${callingCode}${nsn}`, type };
}

function international(digits: string): Verdict {
  if (digits.length === 0 || digits[0] === '0') return undefined;
  const meta = metadata()!;
  for (let i = 1; i <= 3 && i <= digits.length; i++) {
    const code = digits.slice(0, i);
    if (!meta.hasCallingCode(code)) continue;
    if (meta.isNonGeographicCallingCode(code)) return FALLBACK;
    const main = meta.getCountryCodesForCallingCode(code)?.[0];
    if (!main) return FALLBACK;
    return finish(code, planFor(main), digits.slice(i), undefined);
  }
  return undefined;
}

function national(digits: string, region: string): Verdict {
  const plan = planFor(region);
  // International dialling prefix ("011 …" in the US): the library's own path.
  if (plan.idd && digits.search(plan.idd) === 0) return FALLBACK;
  if (digits.startsWith(plan.callingCode)) {
    // extractCountryCallingCodeFromInternationalNumberWithoutPlusSign(): "34612345678" typed without its "+". The
    // calling code is dropped when only the shorter number fits the plan's pattern, or the whole one is too long; the
    // number is then read as an international one (the calling code's main plan, no default country).
    const shorter = digits.slice(plan.callingCode.length);
    const nsnShorter = nationalNumber(shorter, plan);
    const nsnWhole = nationalNumber(digits, plan);
    if (nsnShorter === FALLBACK || nsnWhole === FALLBACK) return FALLBACK;
    if ((!plan.nsn.test(nsnWhole) && plan.nsn.test(nsnShorter)) || plan.tooLong(nsnWhole)) {
      const main = metadata()!.getCountryCodesForCallingCode(plan.callingCode)?.[0];
      return main ? finish(plan.callingCode, planFor(main), shorter, undefined) : FALLBACK;
    }
  }
  return finish(plan.callingCode, plan, digits, region);
}

function library(cleaned: string, region?: string): PhoneVerdict | undefined {
  const p = region ? parsePhoneNumberFromString(cleaned, region as CountryCode) : parsePhoneNumberFromString(cleaned);
  return p?.isValid() ? { e164: p.number, type: p.getType() } : undefined;
}

export interface PhoneValidatorOptions {
  /** false: every number goes to libphonenumber-js (the reference the compiled patterns are tested against). */
  compiled?: boolean;
}

/** National numbers are tried in each of `regions`, in order, skipping regions whose possible lengths cannot fit. */
export function createPhoneValidator(regions: string[], options: PhoneValidatorOptions = {}): PhoneValidator {
  const meta = metadata();
  const compiled = options.compiled !== false && meta !== undefined;
  const known = regions.map((r) => r.toUpperCase()).filter((r) => meta === undefined || meta.hasCountry(r));
  const candidates = known.map((region) => ({
    region,
    lengths: meta ? new Set(planFor(region).lengths ?? []) : new Set<number>(),
  }));
  const inRegions = (cleaned: string, all: boolean): PhoneVerdict[] => {
    const digits = digitsOf(cleaned);
    const out: PhoneVerdict[] = [];
    for (const { region, lengths } of candidates) {
      if (!mayBelong(region, lengths, digits)) continue;
      const verdict = compiled ? national(digits, region) : FALLBACK;
      const result = verdict === FALLBACK ? library(cleaned, region) : verdict;
      if (result === undefined) continue;
      out.push(result);
      if (!all) break;
    }
    return out;
  };
  const clean = (raw: string) => raw.replace(/^\(?00/, '+').replace(/^\(\+/, '+');
  return {
    validate(raw) {
      const cleaned = clean(raw);
      if (cleaned.startsWith('+')) {
        if (!compiled) return library(cleaned);
        const verdict = international(digitsOf(cleaned.slice(1)));
        return verdict === FALLBACK ? library(cleaned) : verdict;
      }
      return inRegions(cleaned, false)[0];
    },
    validateAll(raw) {
      const cleaned = clean(raw);
      return cleaned.startsWith('+') ? [] : inRegions(cleaned, true);
    },
  };
}

/**
 * Cheap shape check before validation: national numbers of the right length, with or without the trunk 0 or US 1.
 * Plans allowing many lengths (DE, IT) are only tried for numbers written with a leading 0 or 3.
 */
function mayBelong(region: string, lengths: Set<number>, digits: string): boolean {
  if (lengths.size === 0) return true;
  if (lengths.size >= 5 && !/^[03]/.test(digits)) return false;
  const n = digits.length;
  if (
    lengths.has(n) ||
    (digits[0] === '0' && lengths.has(n - 1)) ||
    (region === 'US' && digits[0] === '1' && lengths.has(n - 1))
  )
    return true;
  // Argentine mobiles written nationally carry the trunk 0 and a 15 after the area code: "011 15-2371-4269".
  return region === 'AR' && digits[0] === '0' && lengths.has(n - 3);
}
