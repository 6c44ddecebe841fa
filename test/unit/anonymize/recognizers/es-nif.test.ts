import { describe, expect, it } from 'vitest';
import { esNifRecognizer } from '../../../../src/anonymize/recognizers/es-nif.js';
import { found } from '../helpers.js';

describe('ES_NIF recognizer', () => {
  it('accepts DNI numbers with the right mod-23 letter in common spellings', () => {
    for (const v of ['12345678Z', '12345678-Z', '12.345.678-Z', '12345678 z', '00000000T'])
      expect(found(esNifRecognizer, `DNI ${v}.`)).toEqual([v]);
    expect(esNifRecognizer.find('12.345.678-z')[0]?.normalized).toBe('12345678Z');
  });
  it('rejects a wrong control letter and longer digit runs', () => {
    expect(found(esNifRecognizer, 'pedido 12345678A, cuenta 112345678Z, ref 12345678')).toEqual([]);
  });
});
