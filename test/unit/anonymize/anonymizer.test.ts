import { describe, expect, it } from 'vitest';
import { createAnonymizer, PII_RESIDUAL_SKIP_REASON, placeholderNote } from '../../../src/anonymize/index.js';
import type { RagSample } from '../../../src/sample.js';

const anonymizer = createAnonymizer({ phoneRegions: ['ES', 'GB', 'US'], threshold: 0.5, residualThreshold: 0.8 });

describe('createAnonymizer', () => {
  it('anonymizeText replaces entities and reports output positions', () => {
    const { text, entities } = anonymizer.anonymizeText(
      'Soy Lucía Sanjurjo, DNI 12345678Z, móvil 612 34 56 78. Pagó 42,50 € el 3 de mayo.',
    );
    expect(text).toBe('Soy <PERSON_1>, DNI <ES_NIF_1>, móvil <PHONE_1>. Pagó 42,50 € el 3 de mayo.');
    for (const e of entities) {
      expect(e.field).toBe('text');
      expect(text.slice(e.start, e.end)).toMatch(/^<[A-Z_]+_\d+>$/);
    }
    expect(entities.map((e) => e.type)).toEqual(['PERSON', 'ES_NIF', 'PHONE']);
  });

  it('anonymizeSample uses one mapping across question, answer, contexts and reference', () => {
    const sample: RagSample = {
      traceId: 't1',
      question: 'Hola, soy Carmen Ibarra (carmen.ibarra@gmail.com). ¿Y mi reembolso?',
      answer: 'Hola Carmen, te escribiremos a CARMEN.IBARRA@GMAIL.COM.',
      contexts: [
        'Ticket 55120: cliente carmen.ibarra@gmail.com, teléfono +34 612 345 678',
        'Otra clienta: ana@x.es, 612345678',
      ],
      reference: 'Se avisa a carmen.ibarra@gmail.com',
      language: 'es',
      meta: { source: 'test' },
    };
    const { sample: out, entities, residual } = anonymizer.anonymizeSample(sample);
    expect(out.question).toBe('Hola, soy <PERSON_1> (<EMAIL_1>). ¿Y mi reembolso?');
    expect(out.answer).toBe('Hola <PERSON_1>, te escribiremos a <EMAIL_1>.');
    expect(out.contexts).toEqual([
      'Ticket 55120: cliente <EMAIL_1>, teléfono <PHONE_1>',
      'Otra clienta: <EMAIL_2>, <PHONE_1>',
    ]);
    expect(out.reference).toBe('Se avisa a <EMAIL_1>');
    expect(out.traceId).toBe('t1');
    expect(out.meta).toEqual({ source: 'test' });
    expect(residual).toEqual([]);
    expect(new Set(entities.map((e) => e.field))).toEqual(
      new Set(['question', 'answer', 'contexts[0]', 'contexts[1]', 'reference']),
    );
    for (const e of entities) {
      const text =
        e.field === 'question'
          ? out.question
          : e.field === 'answer'
            ? out.answer
            : e.field === 'reference'
              ? out.reference!
              : out.contexts[Number(e.field.slice(9, -1))]!;
      expect(text.slice(e.start, e.end)).toMatch(/^<[A-Z_]+_\d+>$/);
    }
    expect(JSON.stringify(out)).not.toMatch(/carmen\.ibarra|612|Ibarra/i);
  });

  it('repeats a name found with a cue wherever it appears again in the trace', () => {
    const { sample } = anonymizer.anonymizeSample({
      traceId: 't',
      question: 'me llamo xiomara etxegarai',
      answer: 'Xiomara Etxegarai, tu pedido sale hoy.',
      contexts: [],
      meta: {},
    });
    expect(sample.answer).toBe('<PERSON_1>, tu pedido sale hoy.');
  });

  it('leaves what the judge needs', () => {
    const text =
      'El artículo 17 de la Ley 3/2018, versión 2.4.1, importe 1.250,00 €, 21 % IVA, el 12/05/2024 a las 10:30, ticket 3fa85f64-5717-4562-b3fc-2c963f66afa6, pedido 123456789. Banco Santander y Telefónica en Madrid. En mayo florece la rosa. Will it ship in May?';
    expect(anonymizer.anonymizeText(text).text).toBe(text);
  });

  it('residual lists high-confidence entities the first pass left (a stricter redaction threshold than the gate)', () => {
    const lenient = createAnonymizer({ phoneRegions: ['ES'], threshold: 0.99, residualThreshold: 0.8 });
    const { residual, sample } = lenient.anonymizeSample({
      traceId: 't',
      question: 'mi email es ana@x.es',
      answer: 'ok',
      contexts: [],
      meta: {},
    });
    expect(sample.question).toBe('mi email es ana@x.es');
    expect(residual).toEqual([{ type: 'EMAIL', field: 'question', start: 12, end: 20, score: 0.95 }]);
    expect(PII_RESIDUAL_SKIP_REASON).toBe('pii_residual');
  });

  it('is idempotent on its own output', () => {
    const once = anonymizer.anonymizeText('Dear Mr. Smith, call Sr. García at +44 7911 123456.').text;
    expect(anonymizer.anonymizeText(once)).toEqual({ text: once, entities: [] });
  });

  it('tells the judge what placeholders mean', () => {
    expect(placeholderNote('en')).toMatch(/equal placeholders mean equal values/i);
    expect(placeholderNote('es')).toMatch(/marcadores iguales significan valores iguales/i);
  });

  it('copes with pathological input', () => {
    const text = `${'@'.repeat(50_000)}${'1 '.repeat(50_000)}${'Aa-'.repeat(30_000)}${'::'.repeat(30_000)}`;
    expect(anonymizer.anonymizeText(text).text.length).toBeGreaterThan(0);
  });
});
