import { describe, expect, it } from 'vitest';
import { personRecognizer } from '../../../../src/anonymize/recognizers/person.js';
import { found } from '../helpers.js';

const names = (text: string) => found(personRecognizer, text);

describe('person recognizer', () => {
  it('finds full names from the gazetteer, with particles and compound surnames', () => {
    expect(names('Ayer vino María del Carmen de la Fuente con Íñigo Arrieta-Zubeldia.')).toEqual([
      'María del Carmen de la Fuente',
      'Íñigo Arrieta-Zubeldia',
    ]);
    expect(names('Escalate to Fiona Gallagher in billing.')).toEqual(['Fiona Gallagher']);
  });
  it('catches lower-case names typed after introductions and greetings', () => {
    expect(names('hola buenas, me llamo andrea villalobos y quería saber')).toEqual(['andrea villalobos']);
    expect(names('soy juan, el de ayer')).toEqual(['juan']);
    expect(names('my name is xiomara etxegarai')).toEqual(['xiomara etxegarai']);
  });
  it('uses titles, labels, roles and signatures for names the gazetteer lacks', () => {
    expect(names('Sra. Zubeldia, le escribimos')).toEqual(['Zubeldia']);
    expect(names('Titular: Xiomara Etxegarai')).toEqual(['Xiomara Etxegarai']);
    expect(names('la clienta Zuriñe Lekuona pide que la llamemos')).toEqual(['Zuriñe Lekuona']);
    expect(names('Gracias por todo.\n\nUn saludo,\nXabat Irigoien')).toEqual(['Xabat Irigoien']);
    expect(names('Dear Ms Thornbury, thanks')).toEqual(['Thornbury']);
  });
  it('leaves ordinary words that are also names, and utterances after speaker labels', () => {
    expect(names('En mayo florece la rosa. Will it ship in May? Mark the box. Grace periods apply.')).toEqual([]);
    expect(names('Agente: Lamento la situación. Cliente: Vale.')).toEqual([]);
    expect(names("Dear customer, I'm sure we'll fix it.")).toEqual([]);
  });
  it('leaves places, companies and institutions named after people', () => {
    expect(
      names(
        'El Hospital Gregorio Marañón y la Calle Juan Bravo; García y Asociados S.L.; Morgan Stanley; Victoria Station.',
      ),
    ).toEqual([]);
  });
  it('needs a surname or a cue for ambiguous given names, but takes them with one', () => {
    expect(names('La Victoria de Samotracia')).toEqual([]);
    expect(names('Firmado por la clienta Rosa Martínez')).toEqual(['Rosa Martínez']);
    expect(names('Hola Rosa, ¿qué tal?')).toEqual(['Rosa']);
  });
  it('takes an ordinary word as a name when a role follows it in apposition', () => {
    expect(names('vale, dejo el paquete a Milagros la vecina?')).toEqual(['Milagros']);
    expect(names('Grace, my neighbour, has the key')).toEqual(['Grace']);
    expect(names('Rosa la flor y la Luz del día')).toEqual([]);
  });
  it('leaves products, plans and services after prepositions and bare role nouns', () => {
    expect(names('se conecta al router por Wi-Fi (2,4 y 5 GHz); pago por Bizum')).toEqual([]);
    expect(
      names('Las vacaciones se piden en el portal del empleado Nido con 15 días de antelación. Soy cliente Pro.'),
    ).toEqual([]);
    expect(names('atendido por Marta; handled by Ewa Nowak; cliente Zuriñe Lekuona')).toEqual([
      'Marta',
      'Ewa Nowak',
      'Zuriñe Lekuona',
    ]);
  });
  it('does not read placeholders as names', () => {
    expect(names('Sr. <PERSON_1> y Dear <PERSON_2>')).toEqual([]);
  });
});

describe('person name forms without a first name in front', () => {
  it('finds an initial and a surname, a particle surname alone, the register form and lower-case full names', () => {
    expect(found(personRecognizer, 'Offer signed by A. Ellsworth today')).toEqual(['A. Ellsworth']);
    expect(found(personRecognizer, 'reference check with van der Meer at noon')).toEqual(['van der Meer']);
    expect(found(personRecognizer, 'Conductor: ORDÓÑEZ ESPINOSA, NICANOR; DNI')).toEqual(['ORDÓÑEZ ESPINOSA, NICANOR']);
    expect(personRecognizer.find('Titular: GARCÍA LÓPEZ, MARÍA')[0]?.normalized).toBe('maria garcia lopez');
    expect(found(personRecognizer, 'el chat con silvia moreno de ayer')).toEqual(['silvia moreno']);
  });
  it('leaves abbreviations, places, brands, institutions and technologies', () => {
    expect(found(personRecognizer, 'Vitamin C. Many people take it; viene de Madrid; EE. UU.')).toEqual([]);
    expect(
      found(personRecognizer, 'Pasa por el Hospital Dr. Peset; compra Dr. Oetker en John Lewis o en Wendy’s.'),
    ).toEqual([]);
    expect(found(personRecognizer, 'la cita es en el Instituto Nacional de Cardiología Ignacio Chávez')).toEqual([]);
    expect(found(personRecognizer, 'Julia calcula la media y Hugo genera la web')).toEqual([]);
    expect(found(personRecognizer, 'El 401 viene de la firma: estás firmando con otra clave')).toEqual([]);
  });
});
