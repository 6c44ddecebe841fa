import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { streetCore } from '../../../src/anonymize/address-forms.js';
import { parseConfig } from '../../helpers/config.js';

const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const fields = (...texts: string[]) =>
  anonymizer.anonymizeFields(texts.map((text, i) => ({ field: i === 0 ? 'question' : `contexts[${i - 1}]`, text })))
    .texts;

describe('one placeholder per address, whichever way it is written', () => {
  it('keys an address by its street core: type written out, no links, flat, floor, postcode or town', () => {
    expect(streetCore('Avda. de Andalucía nº 42, 9º G')?.key).toBe('avenida andalucia 42');
    expect(streetCore('Avenida de Andalucía 42')?.key).toBe('avenida andalucia 42');
    expect(streetCore('C/ de Juan de Garay n.º 101, 3.º dcha., 39099 Santander')?.key).toBe('calle juan garay 101');
    expect(streetCore('P.º de la Ribera n.º 79, 1º B, 06046 Badajoz')?.key).toBe('paseo ribera 79');
    expect(streetCore('Flat 8, 196 Harbour Close')?.key).toBe('196 harbour close');
    expect(streetCore('Apartment 39, Belmont Lodge, 25 Queensway, Derby DE1 5LD')?.key).toBe('25 queensway');
    expect(streetCore('2721 Birchwood St, Apt 29B, Spokane, WA 99242')?.key).toBe('2721 birchwood street');
  });

  it('gives the long and the short form of one address one placeholder across fields', () => {
    expect(fields('Envíalo a Flat 8, 196 Harbour Close, por favor.', 'Delivered to 196 Harbour Close.')).toEqual([
      'Envíalo a <ADDRESS_1>, por favor.',
      'Delivered to <ADDRESS_1>.',
    ]);
    expect(
      fields('Vivo en Avda. de Andalucía nº 42, 9º G.', 'El técnico irá a Avenida de Andalucía 42 el lunes.'),
    ).toEqual(['Vivo en <ADDRESS_1>.', 'El técnico irá a <ADDRESS_1> el lunes.']);
  });

  it('finds a short form the recognizers do not read alone where the trace wrote the long one', () => {
    expect(
      fields(
        'Send the keys to Apartment 39, Belmont Lodge, 25 Queensway, Derby DE1 5LD.',
        'The keys go to 25 Queensway; also 11, Queensway is fine.',
      ),
    ).toEqual(['Send the keys to <ADDRESS_1>.', 'The keys go to <ADDRESS_1>; also 11, Queensway is fine.']);
    expect(
      fields('Vivo en Ronda de Isabel la Católica, 111, piso 9, pta. 4.', 'Isabel la Católica, 111: entregado.'),
    ).toEqual(['Vivo en <ADDRESS_1>.', '<ADDRESS_1>: entregado.']);
  });

  it('keeps two different addresses apart', () => {
    expect(fields('Vivo en Calle Mayor 12, 3º B.', 'Antes vivía en Calle Mayor 14.')).toEqual([
      'Vivo en <ADDRESS_1>.',
      'Antes vivía en <ADDRESS_2>.',
    ]);
  });
});

describe('one placeholder per person, whichever way the name is written', () => {
  it('finds a full name whose given name only the datasets know and whose surname is also a word', () => {
    expect(
      fields(
        'The keys go to Flat 2 by courier; Isolde signs for them.',
        'Tenant Isolde Miller moved in on 2025-03-01.',
      ),
    ).toEqual([
      'The keys go to Flat 2 by courier; <PERSON_1> signs for them.',
      'Tenant <PERSON_1> moved in on 2025-03-01.',
    ]);
  });

  it('takes a name standing alone at a sentence start as a sign-off when the trace names that person', () => {
    expect(
      fields('¿Me recordáis la revisión? Gracias. Óscar', 'Cliente Óscar Sotomayor Jiménez | revisión 9-1-2026'),
    ).toEqual(['¿Me recordáis la revisión? Gracias. <PERSON_1>', 'Cliente <PERSON_1> | revisión 9-1-2026']);
  });

  it('reads the speakers of a chat export and a name that is also a word in a list of names', () => {
    expect(fields('[26/06/2024 03:54] Jimena: buenas, dime')).toEqual(['[26/06/2024 03:54] <PERSON_1>: buenas, dime']);
    expect(fields('Faltan Iván, Gorka, Joaquín y Pilar. La familia de Pilar avisó.')).toEqual([
      'Faltan <PERSON_1>, <PERSON_2>, <PERSON_3> y <PERSON_4>. La familia de <PERSON_4> avisó.',
    ]);
    expect(fields('según el chat con david romero')).toEqual(['según el chat con <PERSON_1>']);
  });
});

describe('product and system names that read as surnames are no persons without a person cue', () => {
  it('leaves a name after a noun with its article, and after "built by"', () => {
    expect(
      fields(
        '¿La integración de Vela funciona con la 9.5?',
        'Sí: el conector de Roldán y el módulo built by Sawyer son compatibles; Sawyer’s API acepta reintentos.',
      ),
    ).toEqual([
      '¿La integración de Vela funciona con la 9.5?',
      'Sí: el conector de Roldán y el módulo built by Sawyer son compatibles; Sawyer’s API acepta reintentos.',
    ]);
  });

  it('still finds people after their cue', () => {
    expect(fields('Lo revisa de la Fuente mañana; handled by Ewa Nowak; reference check with van Dijk.')).toEqual([
      'Lo revisa <PERSON_1> mañana; handled by <PERSON_2>; reference check with <PERSON_3>.',
    ]);
  });
});
