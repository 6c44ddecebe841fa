import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/program.js';
import { align } from '../../fixtures/anonymize-eval/align.js';
import { loadSplit, type EntityLabel, type EvalRecord, type KeepLabel } from '../../fixtures/anonymize-eval/corpus.js';
import {
  anonymizeRecords,
  defaultLineAnonymizer,
  evaluateRecords,
  headline,
  scoreSplit,
} from '../../fixtures/anonymize-eval/evaluate.js';

/** The evaluator's figures on hand-made outputs whose right answers are counted by hand. */
const ZWSP = '\u200B';

function label(
  fields: Record<string, string>,
  field: string,
  text: string,
  from = 0,
): { field: string; start: number; end: number; text: string } {
  const start = fields[field]!.indexOf(text, from);
  if (start < 0) throw new Error(`${text} not in ${field}`);
  return { field, start, end: start + text.length, text };
}
const ent = (
  fields: Record<string, string>,
  field: string,
  text: string,
  type: EntityLabel['type'],
  norm: string,
): EntityLabel => ({
  ...label(fields, field, text),
  type,
  norm,
  classes: [type.toLowerCase()],
});
const kept = (fields: Record<string, string>, field: string, text: string, kind: string): KeepLabel => ({
  ...label(fields, field, text),
  kind,
});

const f1 = {
  question: 'Soy Ana Ruiz, mi móvil es 612 345 678 y mi correo ana.ruiz@x.es.',
  answer: `Gracias Ana, te llamamos al 6${ZWSP}12 345 678. Tu pedido de John Lewis sale hoy.`,
  'contexts[0]': 'Cliente ANA RUIZ, DNI 12345678A (no valida).',
};
const r1: EvalRecord = {
  id: 'hand-1',
  lang: 'es',
  template: 'hand',
  input: { id: 'hand-1', question: f1.question, answer: f1.answer, contexts: [f1['contexts[0]']] },
  entities: [
    ent(f1, 'question', 'Ana Ruiz', 'PERSON', 'ana ruiz'),
    ent(f1, 'question', '612 345 678', 'PHONE', '+34612345678'),
    ent(f1, 'question', 'ana.ruiz@x.es', 'EMAIL', 'ana.ruiz@x.es'),
    ent(f1, 'answer', 'Ana', 'PERSON', 'ana ruiz'),
    ent(f1, 'answer', `6${ZWSP}12 345 678`, 'PHONE', '+34612345678'),
    ent(f1, 'contexts[0]', 'ANA RUIZ', 'PERSON', 'ana ruiz'),
  ],
  keep: [kept(f1, 'answer', 'John Lewis', 'brand-person')],
  lookalikes: [kept(f1, 'contexts[0]', '12345678A', 'invalid-dni')],
};
const out1 = {
  question: 'Soy <PERSON_1>, mi móvil es <PHONE_1> y mi correo <EMAIL_1>.',
  // The phone survives with a zero-width space in it; the brand is taken for a person.
  answer: `Gracias <PERSON_2>, te llamamos al 6${ZWSP}12 345 678. Tu pedido de <PERSON_3> sale hoy.`,
  'contexts[0]': 'Cliente <PERSON_1>, DNI 12345678A (no valida).',
};

const f2 = { text: 'Llamar a Luis Soto o a Marta Gil al ６１２ ３４５ ６７９ (fijo: 915.12.34.56).' };
const r2: EvalRecord = {
  id: 'hand-2',
  lang: 'es',
  template: 'hand',
  input: { id: 'hand-2', text: f2.text },
  entities: [
    ent(f2, 'text', 'Luis Soto', 'PERSON', 'luis soto'),
    ent(f2, 'text', 'Marta Gil', 'PERSON', 'marta gil'),
    ent(f2, 'text', '６１２ ３４５ ６７９', 'PHONE', '+34612345679'),
    ent(f2, 'text', '915.12.34.56', 'PHONE', '+34915123456'),
  ],
  keep: [],
  lookalikes: [],
};
// Two people under one placeholder; the full-width number left as it was; the landline gone.
const out2 = { text: 'Llamar a <PERSON_1> o a <PERSON_1> al ６１２ ３４５ ６７９ (fijo: <PHONE_1>).' };

describe('anonymizer evaluation: scoring', () => {
  const rep = scoreSplit([r1, r2], [out1, out2]);
  const type = (t: string) => rep.types.find((x) => x.type === t)!;

  it('counts recall by type, precision by placeholder, and leaks hidden by invisible or full-width characters', () => {
    expect(rep.unaligned).toBe(0);
    expect(type('PERSON')).toMatchObject({
      gold: 5,
      typed: 5,
      redacted: 5,
      partial: 0,
      predicted: 6,
      predictedCorrect: 5,
    });
    expect(type('PHONE')).toMatchObject({ gold: 4, typed: 2, leaked: 2 });
    expect(type('EMAIL')).toMatchObject({ gold: 1, typed: 1, leaked: 0 });
    expect(rep.leaks).toEqual({ total: 5, hit: 2 });
    expect(rep.misses.filter((m) => m.how === 'leaked').map((m) => m.text)).toEqual([
      `6${ZWSP}12 345 678`,
      '６１２ ３４５ ６７９',
    ]);
  });

  it('counts a brand taken for a person as damage and an invalid DNI left alone as kept', () => {
    expect(rep.keep.get('brand-person')).toEqual({ total: 1, hit: 1 });
    expect(rep.lookalikes.get('invalid-dni')).toEqual({ total: 1, hit: 1 });
    const h = headline(rep);
    expect(h.keepDamage).toEqual({ total: 1, hit: 1 });
    expect(h.lookalikesKept).toEqual({ total: 1, hit: 1 });
  });

  it('finds a value split over two placeholders or left visible in one field, and two people merged into one', () => {
    expect(rep.groups.get('PERSON')).toEqual({ total: 1, hit: 0 });
    expect(rep.groups.get('PHONE')).toEqual({ total: 1, hit: 0 });
    expect(rep.consistentRecords).toEqual({ total: 1, hit: 0 });
    // hand-1 names Ana in three fields: a multi-field line; hand-2 has its values in one field only.
    expect(rep.multiFieldRecords).toEqual({ total: 1, hit: 0 });
    expect(headline(rep).multiFieldLines).toEqual({ total: 1, hit: 0 });
    expect(rep.merged).toBe(1);
  });

  it('scores a clean anonymization as perfect', () => {
    const clean = {
      question: 'Soy <PERSON_1>, mi móvil es <PHONE_1> y mi correo <EMAIL_1>.',
      answer: 'Gracias <PERSON_1>, te llamamos al <PHONE_1>. Tu pedido de John Lewis sale hoy.',
      'contexts[0]': 'Cliente <PERSON_1>, DNI 12345678A (no valida).',
    };
    const ok = scoreSplit([r1], [clean]);
    const h = headline(ok);
    expect(h.validatedLeaks).toEqual({ total: 3, hit: 0 });
    expect(h.personRecall).toEqual({ total: 3, hit: 3 });
    expect(h.consistency).toEqual({ total: 2, hit: 2 });
    expect(h.multiFieldLines).toEqual({ total: 1, hit: 1 });
    expect(h.phoneRecall).toEqual({ total: 2, hit: 2 });
    expect(h.keepDamage).toEqual({ total: 1, hit: 0 });
    expect(ok.merged).toBe(0);
  });
});

describe('anonymizer evaluation: reading the output', () => {
  it('places each placeholder on the text it replaced, even when the split is ambiguous', () => {
    expect(align('Ana Pérez ana@x.es hoy', '<PERSON_1> <EMAIL_1> hoy')).toEqual([
      { label: '<PERSON_1>', type: 'PERSON', start: 0, end: 9 },
      { label: '<EMAIL_1>', type: 'EMAIL', start: 10, end: 18 },
    ]);
    expect(align('tel 612 345 678 y 699 111 222', 'tel <PHONE_1> y <PHONE_2>')!.map((p) => [p.start, p.end])).toEqual([
      [4, 15],
      [18, 29],
    ]);
  });

  it('aligns an output that also dropped invisible characters elsewhere, and gives up on a rewritten one', () => {
    expect(align(`Hola${ZWSP} Ana Ruiz`, 'Hola <PERSON_1>')).toEqual([
      { label: '<PERSON_1>', type: 'PERSON', start: 6, end: 14 },
    ]);
    expect(align('Hola Ana Ruiz', 'Buenas <PERSON_1>')).toBeNull();
  });

  it('treats a rejected line as unredacted and an identity anonymizer as leaking everything', () => {
    const identity = anonymizeRecords([r1, r2], (line) => JSON.parse(line) as Record<string, unknown>);
    expect(identity.rejected).toBe(0);
    expect(headline(scoreSplit([r1, r2], identity.outputs)).validatedLeaks).toEqual({ total: 5, hit: 5 });
    const rejecting = anonymizeRecords([r1], () => 'not valid JSON');
    expect(rejecting.rejected).toBe(1);
    expect(rejecting.outputs[0]).toEqual(f1);
  });

  it('sees exactly what `ragwatch anonymize --format jsonl` prints for the same lines', async () => {
    const records = [...loadSplit('dev').slice(0, 4), ...loadSplit('heldout').slice(0, 4)];
    const dir = mkdtempSync(join(tmpdir(), 'ragwatch-anon-eval-'));
    try {
      const stdin = new PassThrough();
      stdin.end(records.map((r) => JSON.stringify(r.input)).join('\n') + '\n');
      const stdout = new PassThrough();
      let printed = '';
      stdout.on('data', (d) => (printed += d));
      const code = await main(['anonymize', '--format', 'jsonl'], {
        stdout,
        stderr: new PassThrough(),
        stdin,
        env: {},
        cwd: dir,
      });
      expect(code).toBe(0);
      const cli = printed
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const mine = anonymizeRecords(records, defaultLineAnonymizer()).outputs;
      cli.forEach((line, i) => {
        const fields: Record<string, string> = 'text' in line ? { text: line.text as string } : {};
        if (!('text' in line)) {
          fields.question = line.question as string;
          fields.answer = line.answer as string;
          (line.contexts as string[]).forEach((c, k) => (fields[`contexts[${k}]`] = c));
        }
        expect(mine[i]).toEqual(fields);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads what the real anonymizer prints for a few corpus records', () => {
    const records = loadSplit('dev').slice(0, 6);
    const e = evaluateRecords('dev', records);
    expect(e.rejected).toBe(0);
    expect(e.unaligned).toBe(0);
    expect(e.types.reduce((n, t) => n + t.predicted, 0)).toBeGreaterThan(10);
  });
});
