import { digitsOf, isDigitCode } from '../text/chars.js';
import { insideIbanShape } from '../text/iban-shape.js';
import type { TextFacts } from '../text/facts.js';
import type { Candidate } from '../types.js';
import { createPhoneReader } from '../recognizers/phone.js';
import type { PhoneVerdict } from '../validators/phone-number.js';
import { trailingQuantity } from '../text/quantity.js';
import { rulesAt, type KeepRule, type NumberView } from './keep-rules.js';
import { createLabelMatcher, type LabelKind } from './labels.js';
import { numberRuns } from './runs.js';

/**
 * Recall first for numbers: a second layer after the recognizers, independent of them. Every run of digits they
 * left (runs.ts) is replaced unless a rule of the keep-list (keep-rules.ts) knows it is something the judge needs:
 * - after a phone label ("phone +44 7700 900456", "tel=699112233") it is a PHONE, valid in a numbering plan or not;
 * - after an identifier label ("employee id E-48213", "nº de socio 00452981") it is an ID (labels.ts,
 *   `anonymize.identifierLabels`);
 * - a number the numbering plan reads as a phone is a PHONE, keyed by its E.164 form like the recognizer's;
 * - a longer run holding a valid phone and another number is split, valid sub-spans first ("611 22 33 44 48
 *   horas": the phone, then a quantity), and an international prefix the recognizer left behind joins its phone
 *   ("0034 <PHONE_1>");
 * - any other number of {@link LONG_RUN} digits or more is replaced: a PHONE when written as one (+, 00, an area
 *   code in brackets), else an ID. Deny by default.
 */
export const LONG_RUN = 7;
/** Digits a number needs after an identifier label. */
const ID_MIN = 4;
/** Digits a number needs after a phone label (an extension such as "tel. 2241" is no personal number). */
const PHONE_MIN = 6;
const LABELLED_SCORE = 0.85;
const DENY_SCORE = 0.7;
/** Runs with more blank-separated groups are not searched for phones inside. */
const MAX_GROUPS = 8;

export interface IdentifierLayerOptions {
  phoneRegions: string[];
  /** Label phrases added to the built-in ES/EN identifier labels (`anonymize.identifierLabels`). */
  identifierLabels?: readonly string[];
}

/** Adds to a text's candidates (sorted, disjoint) the numbers they left that are not on the keep-list. */
export type IdentifierLayer = (text: string, facts: TextFacts, found: Candidate[]) => Candidate[];

const SHAPE = rulesAt('shape');
const LABEL = rulesAt('label');
const UNLABELLED = rulesAt('unlabelled');
const PHONE_RULES = rulesAt('phone');
const AFTER_SPLIT = rulesAt('after-split');
const kept = (rules: readonly KeepRule[], view: NumberView) => rules.some((r) => r.keeps(view));

const PHONE_CHARS = /^[+(]?[\d .()-]+$/;
const INTERNATIONAL = /^(?:\+|00|\(\+|\(00)/;
const PREFIX_ONLY = /^(?:\+|00)(\d{1,3})$/;
const IBAN_SHAPE = /^[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{1,4}){2,8}$/;
/** An IBAN's shape: country, check digits and 11 to 30 more characters (the shortest IBAN, Norway's, has 15). */
const ibanShaped = (raw: string) => IBAN_SHAPE.test(raw) && raw.replace(/[ -]/g, '').length >= 15;
/** Values a checksum confirms: what the recognizers read inside an IBAN's shape stands when it is one of them. */
const CHECKSUMMED = new Set<string>(['IBAN', 'ES_NIF', 'ES_NIE', 'CREDIT_CARD']);
/** An identifier's key: its letters and digits, upper case ("e-48213" and "E48213" are one). */
const idKey = (raw: string) => raw.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();

export function createIdentifierLayer(options: IdentifierLayerOptions): IdentifierLayer {
  const reader = createPhoneReader(options.phoneRegions);
  const labels = createLabelMatcher(options.identifierLabels);
  /**
   * Written as a phone number and valid in a configured region: 7 to 15 digits with an international prefix or a
   * phone label, else 9 to 12 (13 with a trunk 0), as the phone recognizer reads national numbers.
   */
  const phoneVerdict = (raw: string, labelled = false): PhoneVerdict | undefined => {
    if (!PHONE_CHARS.test(raw)) return undefined;
    const digits = digitsOf(raw);
    const n = digits.length;
    const national = !labelled && !INTERNATIONAL.test(raw);
    if (national ? n < 9 || n > (digits[0] === '0' ? 13 : 12) : n < 7 || n > 15) return undefined;
    return reader.read(raw);
  };

  return (text, facts, found) => {
    if (facts.digits < ID_MIN) return found;
    const runs = numberRuns(text, facts, ID_MIN);
    if (runs.length === 0) return found;
    const added: Candidate[] = [];
    let extended: Map<Candidate, Candidate> | undefined;
    let dropped: Set<Candidate> | undefined;

    const view = (start: number, end: number, prefix: number, label: LabelKind | undefined): NumberView => ({
      text,
      start,
      end,
      prefix: text.slice(start, start + prefix),
      label,
    });
    const strongShape = (start: number, end: number) => kept(SHAPE, view(start, end, 0, undefined));

    const phone = (start: number, end: number, verdict: PhoneVerdict, score: number) => {
      const raw = text.slice(start, end);
      const c: Candidate = { type: 'PHONE', start, end, score, normalized: verdict.e164 };
      if (!INTERNATIONAL.test(raw)) c.alternatives = () => reader.alternatives(raw);
      added.push(c);
    };
    const unvalidatedPhone = (start: number, end: number, score: number) => {
      const raw = text.slice(start, end);
      const digits = digitsOf(raw.replace('(0)', ''));
      const normalized =
        raw.startsWith('00') || raw.startsWith('(00')
          ? `+${digits.slice(2)}`
          : INTERNATIONAL.test(raw)
            ? `+${digits}`
            : digits;
      const c: Candidate = { type: 'PHONE', start, end, score, normalized };
      if (score === DENY_SCORE) c.precaution = true;
      added.push(c);
    };
    const id = (start: number, end: number, score: number) => {
      const c: Candidate = { type: 'ID', start, end, score, normalized: idKey(text.slice(start, end)) };
      // Deny by default: a number no label names and no validator confirms is replaced as a precaution only.
      if (score === DENY_SCORE) c.precaution = true;
      added.push(c);
    };

    /** Decides the number in [start, end); `prefix` letters are glued before its digits, `letters` when any are. */
    const decide = (start: number, end: number, prefix: number, letters: boolean, given?: LabelKind | null): void => {
      const label = given === undefined ? labels.before(text, start) : (given ?? undefined);
      const v = view(start, end, prefix, label);
      if (kept(SHAPE, v) || kept(LABEL, v)) return;
      const digits = digitsOf(text.slice(start, end)).length;
      if (label === 'id') {
        if (digits >= ID_MIN) id(start, end, LABELLED_SCORE);
        return;
      }
      if (label !== 'phone' && kept(UNLABELLED, v)) return;
      const raw = text.slice(start, end);
      if (letters) {
        if (digits >= LONG_RUN || ibanShaped(raw)) id(start, end, DENY_SCORE);
        return;
      }
      const verdict = phoneVerdict(raw, label === 'phone');
      if (verdict) {
        v.phoneType = verdict.type;
        if (!kept(PHONE_RULES, v)) phone(start, end, verdict, LABELLED_SCORE);
        return;
      }
      const groups = blankGroups(text, start, end);
      if (groups.length >= 4) {
        const n = groups.length / 2;
        // A quantity after the number ("… 48 horas") is no part of it.
        if (trailingQuantity(text, groups[2 * n - 2]!, groups[2 * n - 1]!)) {
          decide(start, groups[2 * n - 3]!, prefix, letters, label ?? null);
          return;
        }
        // Nor is a group the keep-list knows alone ("… 12/03/2025", "… 542.115.1.246 …"): the parts beside it are
        // numbers of their own.
        for (let k = 0; k < n; k++) {
          const gs = groups[2 * k]!;
          const ge = groups[2 * k + 1]!;
          const alone = view(gs, ge, 0, undefined);
          if (!(kept(SHAPE, alone) || (label !== 'phone' && kept(UNLABELLED, alone)))) continue;
          if (k > 0) decide(start, groups[2 * k - 1]!, prefix, false, label ?? null);
          if (k < n - 1) decide(groups[2 * k + 2]!, end, 0, false);
          return;
        }
        if (n <= MAX_GROUPS && splitAtPhone(groups, label)) return;
      }
      if (label === 'phone') {
        if (digits >= PHONE_MIN) unvalidatedPhone(start, end, LABELLED_SCORE);
        return;
      }
      if (kept(AFTER_SPLIT, v) || digits < LONG_RUN) return;
      if (INTERNATIONAL.test(raw) || /^\(\d{2,5}\)/.test(raw)) unvalidatedPhone(start, end, DENY_SCORE);
      else id(start, end, DENY_SCORE);
    };

    /**
     * The longest valid phone inside the run, leftmost first, when what is left beside it is a date, a time, an
     * amount or a phone itself: "611223344 655112233", "611223344 12/03/2025". A bare short group is no reason to
     * cut ("4539 1488 0343 6468" is one number, not a phone between two others).
     */
    const splitAtPhone = (groups: number[], label: LabelKind | undefined): boolean => {
      const n = groups.length / 2;
      const leftoverOk = (s: number, e: number) => strongShape(s, e) || phoneVerdict(text.slice(s, e)) !== undefined;
      for (let i = 0; i < n; i++) {
        for (let j = n; j > i; j--) {
          if (i === 0 && j === n) continue;
          const s = groups[2 * i]!;
          const e = groups[2 * j - 1]!;
          if (strongShape(s, e)) continue;
          const verdict = phoneVerdict(text.slice(s, e), label === 'phone');
          if (!verdict) continue;
          const before = i > 0 ? [groups[0]!, groups[2 * i - 1]!] : undefined;
          const after = j < n ? [groups[2 * j]!, groups[2 * n - 1]!] : undefined;
          if ((before && !leftoverOk(before[0]!, before[1]!)) || (after && !leftoverOk(after[0]!, after[1]!))) continue;
          if (before) decide(before[0]!, before[1]!, 0, false, label ?? null);
          const v = view(s, e, 0, label);
          v.phoneType = verdict.type;
          if (!kept(PHONE_RULES, v)) phone(s, e, verdict, LABELLED_SCORE);
          if (after) decide(after[0]!, after[1]!, 0, false);
          return true;
        }
      }
      return false;
    };

    let next = 0;
    for (const run of runs) {
      while (next < found.length && found[next]!.end <= run.start) next++;
      // "student ID 12X34567": a token mixing letters and digits is an identifier only after its label.
      if (run.mixed) {
        if (next < found.length && found[next]!.start < run.end) continue;
        if (labels.before(text, run.start) === 'id') id(run.start, run.end, LABELLED_SCORE);
        // "NL77ABNA5508811681": an IBAN's shape no checksum accepts, written without blanks.
        else if (ibanShaped(text.slice(run.start, run.end))) id(run.start, run.end, DENY_SCORE);
        continue;
      }
      // "ES63 2095 3445 91 0571540122": an IBAN's shape no checksum accepts is one account number, whatever a
      // recognizer read inside it.
      if (run.prefix === 2 && ibanShaped(text.slice(run.start, run.end))) {
        const inside: Candidate[] = [];
        for (let k = next; k < found.length && found[k]!.start < run.end; k++) inside.push(found[k]!);
        if (inside.some((c) => CHECKSUMMED.has(c.type) || c.start < run.start || c.end > run.end)) continue;
        for (const c of inside) (dropped ??= new Set()).add(c);
        id(run.start, run.end, DENY_SCORE);
        continue;
      }
      // The parts of the run no candidate covers.
      let cursor = run.start;
      for (let k = next; k < found.length && found[k]!.start < run.end; k++) {
        const c = found[k]!;
        if (c.start > cursor) piece(cursor, c.start, c);
        cursor = Math.max(cursor, c.end);
        // "loyalty card number 5289 2314 46": what a label calls an identifier is one, even when a plan reads a phone.
        if (c.type === 'PHONE' && labels.before(text, c.start) === 'id') {
          (extended ??= new Map()).set(c, {
            type: 'ID',
            start: c.start,
            end: c.end,
            score: LABELLED_SCORE,
            normalized: idKey(text.slice(c.start, c.end)),
          });
        }
      }
      if (cursor < run.end) piece(cursor, run.end, undefined);

      function piece(from: number, to: number, before: Candidate | undefined): void {
        let s = from;
        let e = to;
        // A part of the run between candidates: from its first digit, "+" or "(" to its last digit or ")".
        if (s !== run.start) while (s < e && !isDigitCode(text.charCodeAt(s)) && !OPENERS.has(text.charCodeAt(s))) s++;
        if (e !== run.end) while (e > s && !isDigitCode(text.charCodeAt(e - 1)) && text.charCodeAt(e - 1) !== 41) e--;
        const raw = text.slice(s, e);
        if (!/\d/.test(raw)) return;
        // "movil=0034 <PHONE_1>": the international prefix the recognizer left belongs to its phone.
        const prefixOnly = PREFIX_ONLY.exec(raw);
        if (prefixOnly && before?.type === 'PHONE' && !extended?.has(before)) {
          // Read whole again: "0044 208-724-4224" is a London number, whatever "208-724-4224" read alone.
          const whole = phoneVerdict(text.slice(s, before.end));
          if (whole)
            (extended ??= new Map()).set(before, {
              ...before,
              start: s,
              normalized: whole.e164,
              alternatives: undefined,
            });
          else if (before.normalized.startsWith(`+${prefixOnly[1]}`))
            (extended ??= new Map()).set(before, { ...before, start: s });
          if (whole || before.normalized.startsWith(`+${prefixOnly[1]}`)) return;
        }
        // "GB25 NAIA 0190 5008 1361 77": digits that end an IBAN's shape (one no checksum accepts) take it whole.
        const iban = s === run.start ? ibanShapeBefore(text, s, facts.ibanStarts) : -1;
        if (iban >= 0) {
          for (let k = next - 1; k >= 0 && found[k]!.end > iban; k--)
            if (found[k]!.start >= iban) (dropped ??= new Set()).add(found[k]!);
          id(iban, e, DENY_SCORE);
          return;
        }
        decide(s, e, s === run.start ? run.prefix : 0, /[A-Za-z]/.test(raw));
      }
    }
    if (added.length === 0 && extended === undefined && dropped === undefined) return found;
    let base = extended ? found.map((c) => extended!.get(c) ?? c) : found;
    if (dropped) base = base.filter((c) => !dropped!.has(c));
    return [...base, ...added].sort((a, b) => a.start - b.start);
  };
}

const IBAN_BEFORE = /(?:^|[^\p{L}\p{N}])([A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){0,7}[ -]?)$/u;

/** Where an IBAN's shape starts when the text right before `start` holds its beginning ("GB25 NAIA "), else -1. */
function ibanShapeBefore(text: string, start: number, ibanStarts: number[]): number {
  if (!insideIbanShape(text, start, ibanStarts)) return -1;
  const m = IBAN_BEFORE.exec(text.slice(Math.max(0, start - 45), start));
  return m ? start - m[1]!.length : -1;
}

/** "+" and "(" may open a number. */
const OPENERS = new Set([43, 40]);

/** The blank-separated groups of [start, end), as [start, end, start, end, …]. */
function blankGroups(text: string, start: number, end: number): number[] {
  const groups: number[] = [start];
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 32 || c === 9) {
      groups.push(k);
      while (k + 1 < end && (text.charCodeAt(k + 1) === 32 || text.charCodeAt(k + 1) === 9)) k++;
      groups.push(k + 1);
    }
  }
  groups.push(end);
  return groups;
}
