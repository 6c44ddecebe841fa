import { foldWindow } from '../text/context.js';

/**
 * What the words right before a number say it is. `phone` and `id` make it personal data whatever its shape;
 * `order`, `amount`, `version` and `law` are keep-rules (keep-rules.ts): the judge needs those numbers as written.
 */
export type LabelKind = 'phone' | 'id' | 'order' | 'amount' | 'version' | 'law';

/** A comma-separated list of label phrases. */
const list = (...lines: string[]): string[] => lines.flatMap((l) => l.split(',')).map((p) => p.trim());

/** Phone labels, ES and EN, also as the keys of key=value logs ("tel=", "alt_phone=", "movil:"). */
const PHONE = list(
  'tel, telf, tfno, tlf, telefono, telephone, phone, phone number, numero de telefono, movil',
  'numero de movil, mobile, mobile number, mob, celular, cel, cell, cellphone, fijo, landline, whatsapp',
  'fax, sms, contact number, numero de contacto',
);

/**
 * Labelled identifiers are built from two word lists: who the identifier belongs to (a role) and what it is called
 * (an identifier noun): "employee id", "customer number", "member no.", and in Spanish "nº de socio", "código de
 * cliente", "número de empleado", also "socio nº". Whole labels that name no role stand alone (`ID_STANDALONE`).
 */
const ID_ROLES_EN = list(
  'employee, staff, personnel, payroll, worker, customer, client, member, membership, patient, student',
  'pupil, user, subscriber, account, policyholder, policy holder, insured, beneficiary, applicant',
  'tenant, resident, citizen, passenger, guest, loyalty, loyalty card, library card, badge, health card',
  'medical record, hospital, nhs, national insurance, social security, passport, driver license',
  "driver's license, driving licence, licence, license, taxpayer, tax, voter, donor",
);
const ID_NOUNS_EN = list('id, ids, number, no, nr, num, #, code, ref, reference, identifier, card number, card no');
const ID_ROLES_ES = list(
  'socio, socia, cliente, clienta, empleado, empleada, trabajador, trabajadora, personal, paciente',
  'alumno, alumna, estudiante, afiliado, afiliada, afiliacion, asegurado, asegurada, usuario, usuaria',
  'abonado, abonada, titular, miembro, colegiado, colegiada, beneficiario, beneficiaria, solicitante',
  'inquilino, inquilina, pasajero, pasajera, huesped, matricula, historia clinica, historial clinico',
  'tarjeta sanitaria, seguridad social, pasaporte, carnet de conducir, permiso de conducir',
  'contribuyente',
);
const ID_NOUNS_ES = list(
  'n, nº, no, num, numero, codigo, cod, id, identificador, ref, referencia, expediente, ficha, carnet',
  'carne, tarjeta',
);
const ID_STANDALONE = list('mrn, ssn, nino, nhc, nuss, nss, naf, cip, nia, dni, nie, nif, passport, pasaporte');

/** Reference numbers the judge checks against the contexts: orders, tickets, invoices, cases, bookings. */
const ORDER = list(
  'pedido, order, ticket, factura, invoice, albaran, incidencia, incident, caso, case, ref, referencia',
  'reference, localizador, pnr, booking, reserva, tracking, seguimiento, envio, shipment, claim',
  'siniestro, expediente, solicitud, request, transaccion, transaction, operacion, presupuesto, quote',
  'serie, serial, lote, batch, sku, paquete, package, parcel, consignment, rastreo, guia, folio, boleto',
  'comprobante, recibo, receipt, voucher, producto, product, modelo, model, oficina, sucursal, branch',
);
const AMOUNT = list(
  'importe, amount, total, precio, price, coste, cost, salario, salary, sueldo, budget, saldo, balance',
  'pago, payment, cuota, fee',
);
const VERSION = ['version', 'versiones', 'release', 'build', 'rev', 'revision', 'firmware', 'patch', 'parche'];
const LAW = list(
  'ley, ley organica, real decreto, real decreto-ley, decreto, decreto-ley, rd, orden, directiva',
  'directive, reglamento, regulation, articulo, art, arts, article, section, seccion, apartado, boe',
  'statutory instrument, §',
);

/**
 * Words that may stand between a label and its value (also "Cal. Civ. Code § 1798.100": the section sign is the label): "my phone is", "teléfono al", "nº de socio: ", "Regulation
 * (EU) 2016/679". At most {@link MAX_CONNECTORS} of them.
 */
const CONNECTORS = new Set(
  'to is es al a el la the my mi su your our new nuevo nueva actual current on at en de del number numero nº no n num # eu ue ce cee was era fue interna interno internal anual mensual bruto neto annual monthly yearly gross net'.split(
    ' ',
  ),
);
const MAX_CONNECTORS = 3;
/** Law acronyms that are also words when not in capitals ("SI 2019/1234", "RD 1720/2007", "BOE-A-2018-16673"). */
const CASED_LAW = /(?:^|[^\p{L}])(?:SI|S\.I\.|RD|R\.D\.|LO|BOE|BOE-A|DOUE|OJ)[\s-]*(?:n[º°o]\.?\s*)?$/u;
/** Characters of the text read before a number: the longest label and its connectors fit. */
const WINDOW = 64;

interface Phrase {
  words: string[];
  kind: LabelKind;
}

export interface LabelMatcher {
  /** The label that ends right before `start` (connectors aside), on the same line; undefined when none. */
  before(text: string, start: number): LabelKind | undefined;
}

/** The label phrases of each kind, with `identifierLabels` (anonymize.identifierLabels) added to the ID ones. */
export function labelPhrases(identifierLabels: readonly string[] = []): Array<{ phrase: string; kind: LabelKind }> {
  const out: Array<{ phrase: string; kind: LabelKind }> = [];
  const add = (kind: LabelKind, phrases: readonly string[]) => {
    for (const phrase of phrases) out.push({ phrase, kind });
  };
  add('phone', PHONE);
  add('order', ORDER);
  add('amount', AMOUNT);
  add('version', VERSION);
  add('law', LAW);
  const ids: string[] = [...ID_STANDALONE];
  for (const role of ID_ROLES_EN) for (const noun of ID_NOUNS_EN) ids.push(`${role} ${noun}`);
  for (const role of ID_ROLES_ES) {
    for (const noun of ID_NOUNS_ES) {
      for (const link of ['', 'de ', 'del ', 'de la ', 'de los ']) ids.push(`${noun} ${link}${role}`);
      ids.push(`${role} ${noun}`);
    }
  }
  add('id', [...ids, ...identifierLabels]);
  return out;
}

/** Lower case, no accents, "n.º" and "no." as one word, `_`, `=`, `:` and other punctuation as spaces. */
function wordsOf(folded: string): string[] {
  const words: string[] = [];
  const re = /#|§|[a-z0-9º'’]+(?:\.º)?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(folded)) !== null) words.push(m[0].replace('.º', 'º').replace('’', "'"));
  return words;
}

/** Matchers are pure: one per list of a team's labels, built once (thousands of phrases, folded word by word). */
const matchers = new Map<string, LabelMatcher>();

export function createLabelMatcher(identifierLabels: readonly string[] = []): LabelMatcher {
  const key = identifierLabels.join('\u0000');
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = buildLabelMatcher(identifierLabels);
    if (matchers.size < 16) matchers.set(key, matcher);
  }
  return matcher;
}

function buildLabelMatcher(identifierLabels: readonly string[]): LabelMatcher {
  // Phrases by their last word; the longest phrase ending at a word wins ("customer ref" over "ref").
  const byLast = new Map<string, Phrase[]>();
  for (const { phrase, kind } of labelPhrases(identifierLabels)) {
    const words = wordsOf(foldWindow(phrase));
    if (words.length === 0) continue;
    const last = words[words.length - 1]!;
    const list = byLast.get(last) ?? [];
    list.push({ words, kind });
    byLast.set(last, list);
  }
  for (const list of byLast.values()) list.sort((a, b) => b.words.length - a.words.length);
  const phraseEndingAt = (words: string[], k: number): Phrase | undefined => {
    for (const p of byLast.get(words[k]!) ?? []) {
      if (p.words.length > k + 1) continue;
      let ok = true;
      for (let j = 1; j < p.words.length && ok; j++) ok = words[k - j] === p.words[p.words.length - 1 - j];
      if (ok) return p;
    }
    return undefined;
  };
  return {
    before(text, start) {
      const lineStart = text.lastIndexOf('\n', start - 1) + 1;
      const from = Math.max(lineStart, start - WINDOW);
      if (from >= start) return undefined;
      if (CASED_LAW.test(text.slice(Math.max(from, start - 12), start))) return 'law';
      const words = wordsOf(foldWindow(text.slice(from, start)));
      let skipped = 0;
      for (let k = words.length - 1; k >= 0; k--) {
        const p = phraseEndingAt(words, k);
        if (p) return p.kind;
        if (!CONNECTORS.has(words[k]!) || ++skipped > MAX_CONNECTORS) return undefined;
      }
      return undefined;
    },
  };
}
