import { describe, expect, it } from 'vitest';
import { esNieRecognizer } from '../../../../src/anonymize/recognizers/es-nie.js';
import { found } from '../helpers.js';

describe('ES_NIE recognizer', () => {
  it('accepts X/Y/Z numbers with the right letter', () => {
    expect(found(esNieRecognizer, 'NIE X1234567L, y-1234567-x y Z1234567R')).toEqual([
      'X1234567L',
      'y-1234567-x',
      'Z1234567R',
    ]);
    expect(esNieRecognizer.find('x 1234567 l')[0]?.normalized).toBe('X1234567L');
  });
  it('rejects wrong letters', () => {
    expect(found(esNieRecognizer, 'X1234567A Y1234567B')).toEqual([]);
  });
});
