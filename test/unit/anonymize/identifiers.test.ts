import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { KEEP_RULES, keepRulesTable } from '../../../src/anonymize/identifiers/keep-rules.js';
import { labelPhrases } from '../../../src/anonymize/identifiers/labels.js';
import { parseConfig } from '../../helpers/config.js';

const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const out = (text: string) => anonymizer.anonymizeText(text).text;

describe('recall first for numbers: the identifier layer after the recognizers', () => {
  it('splits a phone from the quantity written after it, valid sub-span first', () => {
    expect(out('te avisaremos por SMS al 611 22 33 44 48 horas antes')).toBe(
      'te avisaremos por SMS al <PHONE_1> 48 horas antes',
    );
    expect(out('Text me at 020 8724 4224 2 attempts before, or at 818.739.4695 24 hours ahead')).toBe(
      'Text me at <PHONE_1> 2 attempts before, or at <PHONE_2> 24 hours ahead',
    );
    expect(out('Tel: 611223344 655112233')).toBe('Tel: <PHONE_1> <PHONE_2>');
    expect(out('llamar al 611223344 el 12/03/2025 10:30')).toBe('llamar al <PHONE_1> el 12/03/2025 10:30');
  });

  it('takes a phone glued to a key, with its 00 prefix, under the key of its other forms', () => {
    const { texts } = anonymizer.anonymizeFields([
      { field: 'question', text: 'Mi móvil es el 699 11 22 33.' },
      { field: 'contexts[0]', text: 'tel=699112233 movil=0034 699 11 22 33 alt=0034699112233 phone:+34699112233' },
    ]);
    expect(texts).toEqual(['Mi móvil es el <PHONE_1>.', 'tel=<PHONE_1> movil=<PHONE_1> alt=<PHONE_1> phone:<PHONE_1>']);
  });

  it('replaces a number the text labels as a phone even when no numbering plan accepts it', () => {
    expect(out('phone +44 7700 900456, or (311) 555-0106')).toBe('phone <PHONE_1>, or <PHONE_2>');
    expect(out('Cambiad mi teléfono al 762 879 405.')).toBe('Cambiad mi teléfono al <PHONE_1>.');
    // An extension is no personal number.
    expect(out('Centralita, ext. 2241, tel. 2241')).toBe('Centralita, ext. 2241, tel. 2241');
  });

  it('replaces labelled identifiers as <ID_n>, one placeholder per value across fields', () => {
    expect(
      out('employee id E-48213, nº de socio 00452981, customer number 88-1930, patient ID 7730125, staff no. A123456'),
    ).toBe('employee id <ID_1>, nº de socio <ID_2>, customer number <ID_3>, patient ID <ID_4>, staff no. <ID_5>');
    expect(out('Código de cliente: CL-2093 · socio nº 4521 · ID de usuario 12X34567')).toBe(
      'Código de cliente: <ID_1> · socio nº <ID_2> · ID de usuario <ID_3>',
    );
    // What a label calls an identifier stays one even when a numbering plan would read it as a phone.
    expect(out('loyalty card number 5289 2314 46')).toBe('loyalty card number <ID_1>');
    const { texts } = anonymizer.anonymizeFields([
      { field: 'question', text: 'Balance for employee id E-48213?' },
      { field: 'answer', text: 'E-48213 owes nothing; employee id E-55120 owes 12 €.' },
    ]);
    expect(texts).toEqual(['Balance for employee id <ID_1>?', '<ID_1> owes nothing; employee id <ID_2> owes 12 €.']);
  });

  it('takes the labels a team adds (anonymize.identifierLabels), case and accents aside', () => {
    const team = createAnonymizer(parseConfig({ anonymize: { identifierLabels: ['Número de Lector'] } }).anonymize);
    expect(team.anonymizeText('numero de lector 2841').text).toBe('numero de lector <ID_1>');
    expect(out('numero de lector 2841')).toBe('numero de lector 2841');
    // Label matchers are built once per list of labels and shared: each anonymizer still has its own team's.
    const again = createAnonymizer(parseConfig({ anonymize: { identifierLabels: ['Número de Lector'] } }).anonymize);
    const other = createAnonymizer(parseConfig({ anonymize: { identifierLabels: ['ficha'] } }).anonymize);
    expect(again.anonymizeText('numero de lector 2841').text).toBe('numero de lector <ID_1>');
    expect(other.anonymizeText('numero de lector 2841').text).toBe('numero de lector 2841');
    expect(other.anonymizeText('ficha 2841').text).toBe('ficha <ID_1>');
    expect(out('ficha 2841')).toBe('ficha 2841');
  });

  it('replaces any other long number by default: a phone when written as one, else an identifier', () => {
    expect(out('El número 48201937 aparece en el log.')).toBe('El número <ID_1> aparece en el log.');
    expect(out('Contacto alternativo +34 1234 5678 90')).toBe('Contacto alternativo <PHONE_1>');
    // A document number with a wrong letter, a card that fails Luhn, an IBAN no checksum accepts: still someone's.
    expect(out('DNI (no valida): 12345678A; tarjeta 4539 1488 0343 6468; cuenta ES63 2095 3445 91 0571540122')).toBe(
      'DNI (no valida): <ID_1>; tarjeta <ID_2>; cuenta <ID_3>',
    );
    // Short numbers are quantities, postcodes, codes.
    expect(out('Quedan 4521 plazas en el 28013.')).toBe('Quedan 4521 plazas en el 28013.');
  });

  it('leaves what the keep-list knows: every example of every rule', () => {
    for (const rule of KEEP_RULES) {
      expect(rule.examples.length, rule.name).toBeGreaterThan(0);
      for (const example of rule.examples) {
        const number = /«([^»]+)»/.exec(example)![1]!;
        const text = example.replace(/[«»]/g, '');
        const result = out(text);
        expect(result, `${rule.name}: ${text}`).toContain(number);
        expect(result, `${rule.name}: ${text}`).not.toMatch(/<(?:PHONE|ID)_\d+>/);
      }
    }
  });

  it('keeps numbers a judge checks next to the personal ones', () => {
    expect(
      out(
        'Cita el 12/03/2025 a las 10:30, importe 1.234,56 €, versión 3.19.16.875, 12,5 % de descuento, ticket INC0048213, pedido PED-2025-004512, Ley 15/1999, Regulation (EU) 2016/679, SI 2021/1740',
      ),
    ).toBe(
      'Cita el 12/03/2025 a las 10:30, importe 1.234,56 €, versión 3.19.16.875, 12,5 % de descuento, ticket INC0048213, pedido PED-2025-004512, Ley 15/1999, Regulation (EU) 2016/679, SI 2021/1740',
    );
    expect(out('Log 2024-11-07 23:04:37,224 INFO open 9:00-17:00 uuid 550e8400-e29b-41d4-a716-446655440000')).toBe(
      'Log 2024-11-07 23:04:37,224 INFO open 9:00-17:00 uuid 550e8400-e29b-41d4-a716-446655440000',
    );
    expect(out('Ref. interna 48201937412 (ver CRM).')).toBe('Ref. interna 48201937412 (ver CRM).');
    expect(out('Atención al cliente: 900 83 42 10. Servidor 300.12.45.1 rechazado.')).toBe(
      'Atención al cliente: 900 83 42 10. Servidor 300.12.45.1 rechazado.',
    );
  });

  it('documents the keep-list: the README table is the rules', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../src/anonymize/README.md', import.meta.url)), 'utf8');
    const table =
      /<!-- keep-rules:start -->\n\| rule \| keeps \|\n\| --- \| --- \|\n([\s\S]*?)\n<!-- keep-rules:end -->/.exec(
        readme,
      );
    expect(table?.[1]).toBe(keepRulesTable());
  });

  it('lists ES and EN identifier labels', () => {
    const ids = labelPhrases()
      .filter((l) => l.kind === 'id')
      .map((l) => l.phrase);
    expect(ids).toEqual(expect.arrayContaining(['employee id', 'customer number', 'nº de socio', 'codigo de cliente']));
  });
});

describe('anonymize.identifierLabels', () => {
  it('refuses a label without a letter, naming the key', () => {
    expect(() => parseConfig({ anonymize: { identifierLabels: ['123'] } })).toThrow(/anonymize\.identifierLabels/);
  });
});
