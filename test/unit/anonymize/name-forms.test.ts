import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { parseConfig } from '../../helpers/config.js';

/** Name forms found through the rest of the trace. Default configuration; every value is invented for this file. */
const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const fields = (...texts: string[]) =>
  anonymizer.anonymizeFields(texts.map((text, i) => ({ field: `f${i}`, text }))).texts;
const out = (text: string) => anonymizer.anonymizeText(text).text;

describe("a name no list knows, read from its owner's e-mail address", () => {
  it('goes wherever it is written capitalised, with one placeholder; the same word inside other words stays', () => {
    expect(
      fields(
        'The key was pasted by Eirwen during the incident.',
        'Eirwen, rotate it. Logged in as eirwen.tallis@example.org',
      ),
    ).toEqual([
      'The key was pasted by <PERSON_1> during the incident.',
      '<PERSON_1>, rotate it. Logged in as <EMAIL_1>',
    ]);
    // Role mailboxes and ordinary words in a local part name no one.
    const keep = 'Write to the Support team; Sales will answer. Contact: support@example.org, sales.team@example.org';
    expect(out(keep)).toBe('Write to the Support team; Sales will answer. Contact: support@example.org, <EMAIL_1>');
  });

  it('keeps the key of a full name already recognised', () => {
    expect(fields('Hola, soy Nerea Urquiza.', 'Nerea confirmó el cambio desde nerea.urquiza@example.com')).toEqual([
      'Hola, soy <PERSON_1>.',
      '<PERSON_1> confirmó el cambio desde <EMAIL_1>',
    ]);
  });
});

describe('an initial and a surname that is also a word', () => {
  it('go where a name is expected ("verified by J. Miller"); elsewhere they stay', () => {
    expect(out('The identity was verified by J. Miller yesterday.')).toBe(
      'The identity was verified by <PERSON_1> yesterday.',
    );
    expect(out('Revisado por M. Rosa el lunes.')).toBe('Revisado por <PERSON_1> el lunes.');
    const keep = 'Lo dijo en la pág. 3. Rosa de los vientos incluida.';
    expect(out(keep)).toBe(keep);
  });
});

describe('a given name that folds to an English word', () => {
  it('"Germán" with its accent is a name; "German" the language stays', () => {
    expect(out('El parte lo firmó Germán Ordóñez ayer; me atendió Germán.')).toBe(
      'El parte lo firmó <PERSON_1> ayer; me atendió <PERSON_1>.',
    );
    const keep = 'The course is taught in German and English.';
    expect(out(keep)).toBe(keep);
  });
});

describe('given names that are also words and were in no name list', () => {
  it('"Loreto", "Luz" count next to a surname or after a cue, and stay words alone', () => {
    expect(out('Hola, soy Loreto Medina; mi hermana Luz Jurado también llama.')).toBe(
      'Hola, soy <PERSON_1>; mi hermana <PERSON_2> también llama.',
    );
    const keep = 'La luz del salón no funciona. La Virgen de Loreto.';
    expect(out(keep)).toBe(keep);
  });
});

describe('a particle surname no list holds, in English', () => {
  it('"with de Villiers", "signed by du Plessis" go; a Spanish "de" before a plan name stays', () => {
    expect(out('Reference check with de Villiers; the form was signed by du Plessis.')).toBe(
      'Reference check with <PERSON_1>; the form was signed by <PERSON_2>.',
    );
    const keep = 'Cambia de plan (de Plus a Pro) y el precio de Lujo baja.';
    expect(out(keep)).toBe(keep);
  });
});
