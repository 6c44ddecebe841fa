import { SERVICE_TYPES } from '../recognizers/phone.js';
import { foldWindow } from '../text/context.js';
import { QUANTITY_UNIT } from '../text/quantity.js';
import type { LabelKind } from './labels.js';

/**
 * The keep-list of the identifier layer (layer.ts): the only numbers it leaves as written. Everything else of
 * seven digits or more is replaced, whatever its shape, and a shorter number is replaced when a phone or identifier
 * label stands before it. A rule is positive evidence that the judge needs the number to check a claim (a date,
 * an amount, a version, a ticket) and that it names no person.
 *
 * `stage` says when a rule is asked:
 * - `shape`: always, even after a phone or identifier label ("llamar el 12/03/2025", "phone fee 12,50 €");
 * - `label`: the label before the number says what it is ("pedido 4839 2018", "Ley 15/1999");
 * - `unlabelled`: only when no phone or identifier label stands before it (a dotted version, a ticket code);
 * - `phone`: once the numbering plan has read it as a phone number (an organisation's service line);
 * - `after-split`: once no phone was found inside a longer run ("1500000 tokens").
 */
export interface KeepRule {
  name: string;
  stage: 'shape' | 'label' | 'unlabelled' | 'phone' | 'after-split';
  /** What it keeps, for the documentation. */
  what: string;
  /** Sentences whose number (the one between « ») the rule keeps: the tests run every one through the anonymizer. */
  examples: string[];
  keeps(number: NumberView): boolean;
}

/** A number of the text (its run, or a part of it after a split), with what the layer knows around it. */
export interface NumberView {
  text: string;
  start: number;
  end: number;
  /** Letters glued before the digits ("INC", "E-", "v"), when the number starts its run. */
  prefix: string;
  label: LabelKind | undefined;
  /** The numbering plan's type when it reads the number as a valid phone number ("MOBILE", "TOLL_FREE", …). */
  phoneType?: string | undefined;
}

const raw = (n: NumberView) => n.text.slice(n.start + n.prefix.length, n.end);
const after = (n: NumberView, len = 24) => foldWindow(n.text.slice(n.end, n.end + len));
const before = (n: NumberView, len = 8) => foldWindow(n.text.slice(Math.max(0, n.start - len), n.start));

const day = '(?:0?[1-9]|[12]\\d|3[01])';
const month = '(?:0?[1-9]|1[0-2])';
const year = '(?:19|20)\\d{2}';
const TIME = '\\d{1,2}:\\d{2}(?::\\d{2})?(?:[.,]\\d{1,6})?';
const RANGE = '\\s?[-/]\\s?';
const ONE_DATE = new RegExp(
  `^(?:${day}([./-])${month}\\1(?:${year}|\\d{2})|${month}([./-])${day}\\2(?:${year}|\\d{2})|${year}([./-])${month}\\3${day}|${year}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01]))(?:[ T]${TIME})?$`,
);
const YEARS = new RegExp(`^${year}${RANGE}(?:${year}|\\d{2})$`);
const ONE_TIME = new RegExp(`^${TIME}$`);

/** One of `one`, or a range of two ("01/03/2025-15/03/2025", "9:00 - 17:00"). */
function oneOrRange(raw: string, one: RegExp): boolean {
  if (one.test(raw)) return true;
  for (let k = raw.indexOf('-'); k > 0; k = raw.indexOf('-', k + 1))
    if (one.test(raw.slice(0, k).trimEnd()) && one.test(raw.slice(k + 1).trimStart())) return true;
  return false;
}
const isDate = (raw: string) => YEARS.test(raw) || oneOrRange(raw, ONE_DATE);
const isTime = (raw: string) => oneOrRange(raw, ONE_TIME);
const CURRENCY_BEFORE = /(?:€|\$|£|¥|eur|usd|gbp|mxn|ars|cop|clp|pen|chf)\s?$/;
const CURRENCY_AFTER =
  /^\s?(?:€|\$|£|¥|eur|euros?|usd|gbp|mxn|ars|cop|clp|pen|chf|dolares|dollars?|pesos?|libras?|pounds?|k€|m€)(?![a-z])/;
/** Thousands groups and a decimal part: "1.234.567,89", "1,234,567.89", "1 234 567,89". */
const GROUPED_DECIMAL = /^\d{1,3}(?:([., ])\d{3})+(?!\1)[.,]\d{1,2}$/;
/** Thousands groups with commas: "1,234,567" (a phone is never written with commas). */
const COMMA_GROUPED = /^\d{1,3}(?:,\d{3})+$/;
const PERCENT_AFTER = /^\s?(?:%|por ciento|percent|pct|pp)(?![a-z])/;
/** 3–4 dotted groups, the first of one or two digits: "3.19.16.875", "10.0.19045". */
const DOTTED_VERSION = /^\d{1,2}(?:\.\d{1,5}){2,3}$/;
/**
 * Four dotted groups of one to three digits, with a port or not: an IPv4 address the IP recognizer did not take
 * ("300.12.45.1", "0.0.0.0:8080"), or a version.
 */
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/;
/** Thousands written with dots: "12.345.678" could be a document number as well as a count. */
const DOT_THOUSANDS = /^\d{1,3}(?:\.\d{3})+$/;

export const KEEP_RULES: readonly KeepRule[] = [
  {
    name: 'date',
    stage: 'shape',
    what: 'a calendar date, alone or with a time (12/03/2025, 2025-03-12, 3.12.2025, 20250312, 2024-11-07 23:04:37,224), a range of dates or a range of years (2019-2024)',
    examples: ['La revisión es el «12/03/2025» a las 10:30.', 'Log «2024-11-07 23:04:37,224» INFO ready'],
    keeps: (n) => n.prefix === '' && isDate(raw(n)),
  },
  {
    name: 'time',
    stage: 'shape',
    what: 'a time of day or a range of times (10:30, 23:04:37,224, 9:00-17:00)',
    examples: ['Cita a las «10:30:15».', 'Open «9:00-17:00» on weekdays.'],
    keeps: (n) => n.prefix === '' && isTime(raw(n)),
  },
  {
    name: 'amount',
    stage: 'shape',
    what: 'an amount with its currency before or after it (1.250.000 €, USD 1,250,000, 4.500.000 euros), or written with thousands groups and decimals (1.234.567,89)',
    examples: [
      'Presupuesto: «4.500.000» euros.',
      'Cobro de «1.234.567,89» en lugar de 12,00.',
      'Total «$1,250,000» due.',
    ],
    keeps: (n) =>
      n.prefix === '' &&
      (CURRENCY_BEFORE.test(before(n)) ||
        CURRENCY_AFTER.test(after(n)) ||
        GROUPED_DECIMAL.test(raw(n)) ||
        COMMA_GROUPED.test(raw(n))),
  },
  {
    name: 'percentage',
    stage: 'shape',
    what: 'a percentage (12,5 %, 99.95 percent)',
    examples: ['Disponibilidad del «99,9999» % este mes.'],
    keeps: (n) => n.prefix === '' && PERCENT_AFTER.test(after(n)),
  },
  {
    name: 'reference',
    stage: 'label',
    what: "an order, ticket, invoice, case, booking, shipment, product or serial number, or an organisation's branch code, after its label (pedido, order, ticket, factura, invoice, ref., expediente, PNR, tracking, folio, código de producto, serial, oficina)",
    examples: ['Su pedido «4839 2018 55» sale hoy.', 'Invoice no. «20250012345» attached.'],
    keeps: (n) => n.label === 'order',
  },
  {
    name: 'amount label',
    stage: 'label',
    what: 'an amount after its label (importe, total, price, salary, saldo, balance)',
    examples: ['Salario anual «1.250.000» según nómina.'],
    keeps: (n) => n.label === 'amount',
  },
  {
    name: 'version label',
    stage: 'label',
    what: 'a version or build number after its label (versión, release, build, firmware)',
    examples: ['Compilado con la build «20240311» de ayer.'],
    keeps: (n) => n.label === 'version',
  },
  {
    name: 'law',
    stage: 'label',
    what: 'a law, decree, regulation, article or section number after its label (Ley 15/1999, Real Decreto 1720/2007, Regulation (EU) 2016/679, art. 6.1, SI 2021/1740, § 1798.100)',
    examples: [
      'Según el Real Decreto «1720/2007», de 21 de diciembre.',
      'Under Regulation (EU) «2016/679».',
      'Cal. Civ. Code § «1798.100».',
    ],
    keeps: (n) => n.label === 'law',
  },
  {
    name: 'version',
    stage: 'unlabelled',
    what: 'a version written as one ("v2.3.10"), or dotted groups shaped like a version or an IPv4 address with or without a port (3.19.16.875, 10.0.19045, 300.12.45.1, 0.0.0.0:8080): not a thousands grouping',
    examples: [
      'Actualiza a la «v12.4.1022» cuanto antes.',
      'Windows «10.0.19045» o superior.',
      'listen «0.0.0.0:8080»',
    ],
    keeps: (n) =>
      /^v\.?$/i.test(n.prefix) ||
      (n.prefix === '' && (DOTTED_QUAD.test(raw(n)) || (DOTTED_VERSION.test(raw(n)) && !DOT_THOUSANDS.test(raw(n))))),
  },
  {
    name: 'reference code',
    stage: 'unlabelled',
    what: 'a reference in a known scheme: two to six capital letters glued to its digits (INC0048213, PED-2025-004512, RMA-12345, FAC-2025/00001), or one letter and a year (C-2023-88120)',
    examples: [
      'Incidencia abierta: «INC0048213».',
      'Your return «RMA-2025-123456» is booked.',
      'Expediente «C-2023-88120».',
    ],
    keeps: (n) =>
      /^[A-Z]{2,6}[-_]?$/.test(n.prefix) || (/^[A-Z]-?$/.test(n.prefix) && /^(?:19|20)\d{2}[-/]\d/.test(raw(n))),
  },
  {
    name: 'company tax id',
    stage: 'unlabelled',
    what: "a Spanish company's tax ID (CIF): a legal entity's letter (A–H, J, N, P–S, U–W), seven digits and a control character; companies are no persons",
    examples: ['El CIF de la empresa es «B12345674».'],
    keeps: (n) => /^[ABCDEFGHJNPQRSUVW]$/.test(n.prefix) && /^\d{7}[0-9A-J]$/.test(raw(n)),
  },
  {
    name: 'service number',
    stage: 'phone',
    what: "an organisation's service line: a number the numbering plan calls toll-free, shared-cost, premium-rate or UAN (900/800/901/902 in Spain, 0800/0300/0845 in the UK, 1-800 in the US)",
    examples: ['Atención al cliente: «900834210», de 9 a 18 h.'],
    keeps: (n) => SERVICE_TYPES.has(n.phoneType ?? ''),
  },
  {
    name: 'quantity',
    stage: 'after-split',
    what: 'a count or measure with its unit after it (1500000 tokens, 2.000.000 habitantes, 48 horas)',
    examples: ['El modelo admite «1500000» tokens.', 'Una ciudad de «2.000.000» habitantes.'],
    keeps: (n) => n.prefix === '' && QUANTITY_UNIT.test(after(n)),
  },
];

export const rulesAt = (stage: KeepRule['stage']) => KEEP_RULES.filter((r) => r.stage === stage);

/** The keep-list as the README's table rows (a test keeps the README equal to it). */
export const keepRulesTable = () => KEEP_RULES.map((r) => `| ${r.name} | ${r.what.replace(/\|/g, '\\|')} |`).join('\n');
