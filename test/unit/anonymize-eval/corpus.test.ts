import { readdirSync, readFileSync } from 'node:fs';
import { isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER } from '../../fixtures/anonymize-eval/align.js';
import {
  SPLITS,
  VALIDATED_LABEL_TYPES,
  fieldsOf,
  keyOf,
  loadSplit,
  type EvalRecord,
  type Split,
} from '../../fixtures/anonymize-eval/corpus.js';
import { buildCorpus, classesOf, toJsonl } from '../../fixtures/anonymize-eval/generate.js';
import * as POOLS from '../../fixtures/anonymize-eval/pools.js';
import * as R4 from '../../fixtures/anonymize-eval/pools-r4.js';
import { views, visibleCount } from '../../fixtures/anonymize-eval/signatures.js';
import { foldText } from '../../fixtures/anonymize-eval/text.js';

/** Integrity of the independent evaluation corpus (test/fixtures/anonymize-eval); no anonymizer runs here. */
const corpus: Record<Split, EvalRecord[]> = {
  dev: loadSplit('dev'),
  heldout: loadSplit('heldout'),
  heldout2: loadSplit('heldout2'),
};
const all = [...corpus.dev, ...corpus.heldout, ...corpus.heldout2];
/** Records of the seeded split (pinned templates, `dev-…` and `h2-…`, left out). */
const seeded = (s: 'dev' | 'heldout') => corpus[s].filter((r) => !/^(dev|h2)-/.test(r.template));

/** The round-4 forms, each needed in `dev` and in `heldout2` with at least MIN_PER_SPLIT labels or strings. */
const ROUND4_CLASSES = [
  'phone.number-after',
  'phone.compact',
  'phone.00-prefix',
  'phone.labelled-invalid',
  'id.labelled',
  'id.member',
  'id.customer',
  'id.employee',
  'address.multi-form',
  'person.given-alone',
  'keep.product-name',
  'keep.quantity',
  'keep.field-key',
  'lookalike.ticket-number',
  'lookalike.date',
  'lookalike.time',
  'lookalike.amount-currency',
  'lookalike.version',
  'lookalike.percentage',
  'lookalike.law',
];

/** The classes the issue lists, each needed in both splits with at least this many labels or strings. */
const LISTED_CLASSES = [
  'phone.dotted',
  'phone.mx',
  'phone.ar',
  'phone.co',
  'phone.cl',
  'phone.pe',
  'unicode.zwsp',
  'unicode.zwj',
  'unicode.zwnj',
  'unicode.wj',
  'unicode.shy',
  'unicode.nbsp',
  'unicode.nnbsp',
  'unicode.fullwidth',
  'secret.hex32',
  'secret.hex40',
  'secret.base64-40',
  'secret.password',
  'person.lowercase',
  'person.given-alone',
  'person.initial-surname',
  'person.particle',
  'person.register',
  'address.es-type',
  'address.es-abbrev',
  'address.es-floor',
  'address.uk-building',
  'dob.en-written',
  'email.key-glued',
  'nie.in-address-line',
  'es-nif',
  'es-nie',
  'iban.es',
  'card',
  'ip.v4',
  'ip.v6',
  'keep.brand-person',
  'keep.hospital-person',
  'keep.institution-person',
  'keep.tech',
  'keep.city',
  'keep.timestamp',
  'keep.org-address',
  'keep.product-code',
  'keep.field-key',
  'lookalike.invalid-dni',
  'lookalike.invalid-nie',
  'lookalike.invalid-iban',
  'lookalike.invalid-card',
  'lookalike.order-number',
  'lookalike.amount',
  'lookalike.version',
  'lookalike.hex-hash',
  'lookalike.uuid',
];
const MIN_PER_SPLIT = 6;

function classCounts(records: EvalRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  const add = (c: string) => out.set(c, (out.get(c) ?? 0) + 1);
  for (const r of records) {
    for (const e of r.entities) e.classes.forEach(add);
    for (const k of r.keep) add(`keep.${k.kind}`);
    for (const l of r.lookalikes) add(`lookalike.${l.kind}`);
  }
  return out;
}

const CONTROL = 'TRWAGMYFPDXBNJZSQVHLCKE';
const luhn = (num: string) =>
  num
    .split('')
    .reverse()
    .reduce((sum, ch, i) => {
      const d = Number(ch) * (i % 2 === 1 ? 2 : 1);
      return sum + (d > 9 ? d - 9 : d);
    }, 0) %
    10 ===
  0;
const dniOk = (v: string) => /^\d{8}[A-Z]$/.test(v) && CONTROL[Number(v.slice(0, 8)) % 23] === v[8];
const nieOk = (v: string) =>
  /^[XYZ]\d{7}[A-Z]$/.test(v) && CONTROL[Number(`${'XYZ'.indexOf(v[0]!)}${v.slice(1, 8)}`) % 23] === v[8];

describe('anonymizer evaluation corpus', () => {
  it('is exactly what the seeded generator writes', () => {
    const built = buildCorpus();
    for (const s of SPLITS)
      expect(
        toJsonl(built[s]) ===
          readFileSync(new URL(`../../fixtures/anonymize-eval/${s}.jsonl`, import.meta.url), 'utf8'),
      ).toBe(true);
  });

  it('labels point at their text and never overlap within a field', () => {
    for (const r of all) {
      const texts = new Map(fieldsOf(r.input).map((f) => [f.field, f.text]));
      const labels = [...r.entities, ...r.keep, ...r.lookalikes];
      for (const l of labels) expect(texts.get(l.field)?.slice(l.start, l.end), `${r.id} ${l.field}`).toBe(l.text);
      for (const a of labels)
        for (const b of labels)
          if (a !== b && a.field === b.field)
            expect(a.end <= b.start || b.end <= a.start, `${r.id}: ${a.text} / ${b.text}`).toBe(true);
      expect(r.input.id).toBe(r.id);
    }
  });

  it('has at least 2,000 labelled entities, split roughly in half, with every listed class in both splits', () => {
    const entities = (s: 'dev' | 'heldout') => seeded(s).reduce((n, r) => n + r.entities.length, 0);
    expect(entities('dev') + entities('heldout')).toBeGreaterThanOrEqual(2000);
    const share = entities('dev') / (entities('dev') + entities('heldout'));
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
    const dev = classCounts(seeded('dev'));
    const held = classCounts(seeded('heldout'));
    for (const c of LISTED_CLASSES) {
      expect(dev.get(c) ?? 0, `${c} in dev`).toBeGreaterThanOrEqual(MIN_PER_SPLIT);
      expect(held.get(c) ?? 0, `${c} in heldout`).toBeGreaterThanOrEqual(MIN_PER_SPLIT);
    }
    for (const c of new Set([...dev.keys(), ...held.keys()]))
      expect(dev.has(c) && held.has(c), `${c} in both splits`).toBe(true);
    const groups = all.filter((r) =>
      r.entities.some((e, i) => r.entities.some((o, j) => j !== i && keyOf(o) === keyOf(e) && o.field !== e.field)),
    );
    expect(groups.length).toBeGreaterThan(200);
  });

  it('carries every round-4 form in dev and in heldout2, and heldout2 has at least 200 phones', () => {
    const dev = classCounts(corpus.dev);
    const held2 = classCounts(corpus.heldout2);
    for (const c of ROUND4_CLASSES) {
      expect(dev.get(c) ?? 0, `${c} in dev`).toBeGreaterThanOrEqual(MIN_PER_SPLIT);
      expect(held2.get(c) ?? 0, `${c} in heldout2`).toBeGreaterThanOrEqual(MIN_PER_SPLIT);
    }
    expect(corpus.heldout2.flatMap((r) => r.entities).filter((e) => e.type === 'PHONE').length).toBeGreaterThan(200);
    const multiField = corpus.heldout2.filter((r) =>
      r.entities.some((e, i) => r.entities.some((o, j) => j !== i && keyOf(o) === keyOf(e) && o.field !== e.field)),
    );
    expect(multiField.length).toBeGreaterThanOrEqual(80);
  });

  it('keeps heldout2 apart from dev: templates, people, values, products and streets', () => {
    const dev = new Set(
      corpus.dev.flatMap((r) => [r.template, ...r.entities.map(keyOf), ...r.keep.map((k) => k.text)]),
    );
    const words = (r: EvalRecord) =>
      r.entities.filter((e) => e.type === 'PERSON' || e.type === 'ADDRESS').flatMap((e) => e.norm.split(/[\s,]+/));
    const devWords = new Set(corpus.dev.flatMap(words));
    const shared = corpus.heldout2.flatMap((r) => [
      r.template,
      ...r.entities.map(keyOf),
      ...r.keep.filter((k) => k.kind === 'product-name').map((k) => k.text),
    ]);
    expect(shared.filter((x) => dev.has(x))).toEqual([]);
    const names = new Set(
      corpus.heldout2.flatMap((r) => r.entities.filter((e) => e.type === 'PERSON').flatMap((e) => e.norm.split(' '))),
    );
    const particles = new Set(['de', 'la', 'las', 'del', 'van', 'der', 'ter']);
    expect([...names].filter((w) => !particles.has(w) && devWords.has(w))).toEqual([]);
  });

  it('keeps dev and heldout disjoint: templates, people, values, brands, technologies and cities', () => {
    const ids = (s: Split) => new Set(corpus[s].map((r) => r.id));
    const templates = (s: Split) => new Set(corpus[s].map((r) => r.template));
    const values = (s: Split) => new Set(corpus[s].flatMap((r) => r.entities.map(keyOf)));
    const named = (s: Split) =>
      new Set(
        corpus[s].flatMap((r) =>
          r.keep
            .filter((k) => !['timestamp', 'field-key', 'product-code', 'org-address'].includes(k.kind))
            .map((k) => k.text),
        ),
      );
    for (const f of [ids, templates, values, named]) {
      const dev = f('dev');
      expect([...f('heldout')].filter((x) => dev.has(x))).toEqual([]);
    }
    for (const s of SPLITS) expect(classesOf(corpus[s][0]!).size).toBeGreaterThan(0);
  });

  it('labels valid values of the validated types and invalid look-alikes', () => {
    for (const r of all) {
      for (const e of r.entities) {
        const why = `${r.id}: ${e.text}`;
        // A phone the text labels as one that the numbering plan rejects is labelled PHONE on purpose.
        if (e.type === 'PHONE')
          expect(parsePhoneNumberFromString(e.norm)?.isValid(), why).toBe(
            !e.classes.includes('phone.labelled-invalid'),
          );
        if (e.type === 'ID') expect(e.classes[0], why).toBe('id.labelled');
        if (e.type === 'IBAN') expect(isValidIBAN(e.norm), why).toBe(true);
        if (e.type === 'CREDIT_CARD') expect(luhn(e.norm), why).toBe(true);
        if (e.type === 'ES_NIF') expect(dniOk(e.norm), why).toBe(true);
        if (e.type === 'ES_NIE') expect(nieOk(e.norm), why).toBe(true);
        if (e.type === 'EMAIL') expect(e.norm).toMatch(/^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/);
        if (e.type === 'DATE_OF_BIRTH') expect(e.norm).toMatch(/^(19[3-9]\d|200\d)-\d\d-\d\d$/);
      }
      for (const l of r.lookalikes) {
        const compact = foldText(l.text)
          .replace(/[\s.-]/g, '')
          .toUpperCase();
        if (l.kind === 'invalid-iban') expect(isValidIBAN(compact), l.text).toBe(false);
        if (l.kind === 'invalid-card') expect(luhn(compact), l.text).toBe(false);
        if (l.kind === 'invalid-dni') expect(dniOk(compact), l.text).toBe(false);
        if (l.kind === 'invalid-nie') expect(nieOk(compact), l.text).toBe(false);
        if (['order-number', 'reference', 'amount'].includes(l.kind)) {
          const regions: CountryCode[] = ['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'US', 'GB', 'FR', 'DE', 'IT', 'PT'];
          expect(
            regions.some((c) => parsePhoneNumberFromString(l.text, c)?.isValid()),
            l.text,
          ).toBe(false);
        }
      }
    }
  });

  it('shows each validated value exactly where it is labelled, so a leak can only be a missed label', () => {
    for (const r of all) {
      for (const { field, text } of fieldsOf(r.input)) {
        const v = views(text);
        const here = r.entities.filter((e) => e.field === field && VALIDATED_LABEL_TYPES.includes(e.type));
        for (const e of here)
          expect(visibleCount(e.type, e.norm, v), `${r.id} ${field}: ${e.text}`).toBe(
            here.filter((o) => keyOf(o) === keyOf(e)).length,
          );
      }
    }
  });

  it('leaves no person name unlabelled and no placeholder-like text in the input', () => {
    const names = new Set(
      [
        ...POOLS.ES_GIVEN_F,
        ...POOLS.ES_GIVEN_M,
        ...POOLS.ES_SURNAMES,
        ...POOLS.EN_GIVEN,
        ...POOLS.EN_SURNAMES,
        ...POOLS.LATAM_GIVEN,
        ...POOLS.LATAM_SURNAMES,
        ...R4.R4_ES_GIVEN,
        ...R4.R4_ES_SURNAMES,
        ...R4.R4_EN_GIVEN,
        ...R4.R4_EN_SURNAMES,
        ...R4.R4_LATAM_GIVEN,
        ...R4.R4_LATAM_SURNAMES,
      ]
        .flatMap((n) => n.split(/[\s-]+/))
        .map((w) => w.toLowerCase()),
    );
    for (const r of all) {
      for (const { field, text } of fieldsOf(r.input)) {
        expect(text.match(PLACEHOLDER), r.id).toBeNull();
        let rest = text;
        for (const l of [...r.entities, ...r.keep, ...r.lookalikes].filter((x) => x.field === field))
          rest = rest.slice(0, l.start) + ' '.repeat(l.end - l.start) + rest.slice(l.end);
        const stray = (foldText(rest).match(/\p{L}+/gu) ?? []).filter(
          (w) => /^\p{Lu}/u.test(w) && names.has(w.toLowerCase()),
        );
        expect(stray, `${r.id} ${field}`).toEqual([]);
      }
    }
  });

  it('shares no person name, street or must-keep string with the anonymizer’s own corpus (test/fixtures/pii)', () => {
    const dir = new URL('../../fixtures/pii/docs/', import.meta.url);
    const docs = readdirSync(dir)
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const particles = new Set(['de', 'la', 'las', 'los', 'del', 'van', 'der', 'von', 'da', 'di', 'le', 'el']);
    const oldNames = new Set(
      [...docs.matchAll(/\[\[PERSON:([^\]]+)\]\]/g)]
        .flatMap((m) => m[1]!.split(/[\s,'-]+/))
        .map(fold)
        .filter((w) => w.length > 1),
    );
    const oldAddresses = [...docs.matchAll(/\[\[ADDRESS:([^\]]+)\]\]/g)].map((m) => fold(m[1]!));
    const oldKeeps = new Set([...docs.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]!));
    const names = new Set(
      all
        .flatMap((r) => r.entities.filter((e) => e.type === 'PERSON').flatMap((e) => e.norm.split(/[\s,'-]+/)))
        .map(fold),
    );
    expect([...names].filter((w) => !particles.has(w) && oldNames.has(w))).toEqual([]);
    const streets = [
      ...POOLS.ES_STREETS.map((s) => s.replace(/^(de la|de las|de los|del|de) /, '')),
      ...POOLS.UK_STREETS,
      ...POOLS.US_STREETS,
      ...R4.R4_ES_STREETS.map((s) => s.replace(/^(de la|de las|de los|del|de) /, '')),
      ...R4.R4_UK_STREETS,
      ...R4.R4_US_STREETS.map(([name]) => name),
    ].map(fold);
    expect(streets.filter((s) => oldAddresses.some((a) => a.includes(s)))).toEqual([]);
    // Quantities ('48 horas', '30 minutes') are phrases every corpus shares, not names either could tune on.
    expect(
      all.flatMap((r) => r.keep.filter((k) => k.kind !== 'quantity').map((k) => k.text)).filter((t) => oldKeeps.has(t)),
    ).toEqual([]);
  });
});
