import { describe, expect, it } from 'vitest';
import { ibanRecognizer } from '../../../../src/anonymize/recognizers/iban.js';
import { found } from '../helpers.js';

describe('IBAN recognizer', () => {
  it('finds valid IBANs grouped, compact or lower case, and keys them compact', () => {
    expect(found(ibanRecognizer, 'cuenta ES91 2100 0418 4502 0005 1332 para el cobro')).toEqual([
      'ES91 2100 0418 4502 0005 1332',
    ]);
    expect(found(ibanRecognizer, 'IBAN: DE89370400440532013000.')).toEqual(['DE89370400440532013000']);
    expect(found(ibanRecognizer, 'gb29 nwbk 6016 1331 9268 19')).toEqual(['gb29 nwbk 6016 1331 9268 19']);
    expect(ibanRecognizer.find('es91 2100 0418 4502 0005 1332')[0]?.normalized).toBe('ES9121000418450200051332');
  });
  it('cuts at the country length when a word follows', () => {
    expect(found(ibanRecognizer, 'ES9121000418450200051332 EUR')).toEqual(['ES9121000418450200051332']);
  });
  it('rejects a wrong check digit', () => {
    expect(found(ibanRecognizer, 'ES91 2100 0418 4502 0005 1333 y ES00 0000 0000 0000 0000 0000')).toEqual([]);
  });
});
