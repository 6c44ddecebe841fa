import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { parseConfig } from '../../helpers/config.js';

/**
 * Must-keep strings next to the personal data that must still go: organisations, brands and places named after
 * people, technologies, cities and public addresses, in sentence frames of their own. Default configuration.
 * Every value here is invented for this file (none comes from an evaluation corpus).
 */
const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const out = (text: string) => anonymizer.anonymizeText(text).text;

describe('a company suffix or a place word ends a name and makes it an organisation', () => {
  it('"… Ltd", "…, S.L.", "… Inc." stay; the person beside them goes', () => {
    expect(out('Refund approved by Warren Hughes Ltd for Tessa Morales on Friday.')).toBe(
      'Refund approved by Warren Hughes Ltd for <PERSON_1> on Friday.',
    );
    expect(out('Factura emitida por Lorenzo Beltrán, S.L. a nombre de Inés Calderón.')).toBe(
      'Factura emitida por Lorenzo Beltrán, S.L. a nombre de <PERSON_1>.',
    );
    expect(out('Payment to Miriam Oakes Inc. was signed by Dr. Hollis.')).toBe(
      'Payment to Miriam Oakes Inc. was signed by Dr. <PERSON_1>.',
    );
  });

  it('a hospice, an infirmary or a clinic named after someone stays', () => {
    expect(out('She was moved to Edith Cavell Hospice; her daughter Nora Whitfield signed the form.')).toBe(
      'She was moved to Edith Cavell Hospice; her daughter <PERSON_1> signed the form.',
    );
    expect(out('Discharged from Thomas Linacre Infirmary this morning.')).toBe(
      'Discharged from Thomas Linacre Infirmary this morning.',
    );
  });
});

describe('articles, makes and technologies', () => {
  it('a car make after an article is not the start of its owner name', () => {
    expect(out('¿Cómo va el parte del golpe con el Citroën de Lucía Ferrer?')).toBe(
      '¿Cómo va el parte del golpe con el Citroën de <PERSON_1>?',
    );
    expect(out('El seguro del Honda de Tomás Quintero vence en mayo.')).toBe(
      'El seguro del Honda de <PERSON_1> vence en mayo.',
    );
    expect(out('El Mercedes de Andrés está en el taller; lo trajo Rebeca Olmedo.')).toBe(
      'El Mercedes de Andrés está en el taller; lo trajo <PERSON_1>.',
    );
  });

  it('a name after a particle does not continue into a given name', () => {
    expect(out('Me llevo el Lancia de Paula Ibarra al taller.')).toBe('Me llevo el Lancia de <PERSON_1> al taller.');
    expect(out('Reunión con Pedro de Tomás mañana.')).toBe('Reunión con <PERSON_1> mañana.');
  });

  it('a technology after "de" is not a particle surname', () => {
    expect(out('La migración de Jenkins terminó ayer; la hizo Teo Salvatierra.')).toBe(
      'La migración de Jenkins terminó ayer; la hizo <PERSON_1>.',
    );
    expect(out('Los logs de Cassandra y de Kafka están en el bucket.')).toBe(
      'Los logs de Cassandra y de Kafka están en el bucket.',
    );
  });
});

describe('public addresses', () => {
  it('an institution named earlier in the sentence owns the address; a person named before it does not', () => {
    const museum =
      'Opening hours of the Hunterian Gallery: 10:00-17:00. You will find the ticket desk at 82 Hillhead Street, Glasgow G12 8QQ.';
    expect(out(museum)).toBe(museum);
    expect(out('Applicant Rhys Evans, 14 Moor Lane, Leeds LS6 2AA')).toBe('Applicant <PERSON_1>, <ADDRESS_1>');
  });

  it('"Dirección:" after an institution is its address; a holder\'s "Domicilio:" is personal', () => {
    const office = 'Atención presencial en el Museo de la Ciencia. Dirección: Calle Mayor 12, 47001 Valladolid.';
    expect(out(office)).toBe(office);
    const sede =
      'Para el trámite vaya a la Biblioteca Municipal, cuya sede está en Avenida de Soria 3, 47009 Valladolid.';
    expect(out(sede)).toBe(sede);
    expect(out('Titular: Inés Calderón. Domicilio: Calle Mayor 12, 47001 Valladolid.')).toBe(
      'Titular: <PERSON_1>. Domicilio: <ADDRESS_1>.',
    );
  });
});

describe('public addresses next to the institution, before or after', () => {
  it('a letterhead, an address followed by "(sede del …)" or "— Museo …" stays; "mi domicilio …, cerca del Museo" goes', () => {
    for (const keep of [
      'Ayuntamiento de Teruel\nPlaza de la Catedral 1, 44001 Teruel',
      'Ayuntamiento de Teruel. Plaza de la Catedral 1, 44001 Teruel',
      'Visítenos en Calle Mayor 3, 44001 Teruel (sede del Museo Provincial).',
    ]) {
      expect(out(keep)).toBe(keep);
    }
    expect(out('Mi domicilio es Calle Mayor 3, 44001 Teruel (cerca del Museo Provincial).')).toBe(
      'Mi domicilio es <ADDRESS_1> (cerca del Museo Provincial).',
    );
    expect(out('Hospital Obispo Polanco\nPaciente: Ana Ruiz. Domicilio: Calle Mayor 3, 44001 Teruel')).toBe(
      'Hospital Obispo Polanco\nPaciente: <PERSON_1>. Domicilio: <ADDRESS_1>',
    );
  });
});

describe('brands and towns that are whole person names', () => {
  it('stay; a person with one of their words goes', () => {
    expect(out('Compré unos zapatos de Christian Louboutin y un bolso de Marc Jacobs; me atendió Lázaro Pérez.')).toBe(
      'Compré unos zapatos de Christian Louboutin y un bolso de Marc Jacobs; me atendió <PERSON_1>.',
    );
    const keep =
      'Envío a Comodoro Rivadavia, Tuxtla Gutiérrez y Lázaro Cárdenas; sucursal en Florencio Varela. Booked through Thomas Cook.';
    expect(out(keep)).toBe(keep);
  });
});

describe('cities named like people', () => {
  it('a city after a place preposition or before a region stays; the person with the same name goes', () => {
    const keep =
      'The parcel went from Phoenix to Savannah, GA, then to our Charlotte branch. Vuelo desde Concepción hacia Santiago.';
    expect(out(keep)).toBe(keep);
    expect(out('Charlotte Pemberton called from Austin.')).toBe('<PERSON_1> called from Austin.');
  });
});

describe('a name found elsewhere in the trace is not carried into another name', () => {
  it("a brand, a hospital or a square that shares the person's given name stays; the person's repeats go", () => {
    expect(out('Carolina Pérez compró un perfume de Carolina Herrera; Carolina lo devolvió.')).toBe(
      '<PERSON_1> compró un perfume de Carolina Herrera; <PERSON_1> lo devolvió.',
    );
    expect(out('Gregorio Luna ingresó en el Hospital Gregorio Marañón. Gregorio está estable.')).toBe(
      '<PERSON_1> ingresó en el Hospital Gregorio Marañón. <PERSON_1> está estable.',
    );
    expect(out('Hola, soy Pilar Iglesias. El Ayuntamiento atiende en la Plaza del Pilar; Pilar irá el lunes.')).toBe(
      'Hola, soy <PERSON_1>. El Ayuntamiento atiende en la Plaza del Pilar; <PERSON_1> irá el lunes.',
    );
  });
});
