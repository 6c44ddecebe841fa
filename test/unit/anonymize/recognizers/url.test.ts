import { describe, expect, it } from 'vitest';
import { urlRecognizer } from '../../../../src/anonymize/recognizers/url.js';
import { found } from '../helpers.js';

describe('URL recognizer', () => {
  it('finds URLs whose query carries personal data or credentials', () => {
    expect(found(urlRecognizer, 'abre https://x.es/track?email=ana%40x.es&id=5.')).toEqual([
      'https://x.es/track?email=ana%40x.es&id=5',
    ]);
    expect(found(urlRecognizer, 'https://a.com/cb?code=ABCDEFGHIJKLMNOPQRST&state=1')).toEqual([
      'https://a.com/cb?code=ABCDEFGHIJKLMNOPQRST&state=1',
    ]);
    expect(found(urlRecognizer, 'www.tienda.es/p?ref=promo&dni=12345678Z')).toEqual([
      'www.tienda.es/p?ref=promo&dni=12345678Z',
    ]);
  });
  it('leaves plain links and harmless queries', () => {
    expect(
      found(
        urlRecognizer,
        'https://www.boe.es/buscar/act.php?id=BOE-A-2018-16673 y https://x.com/a?page=2&utm_source=mail',
      ),
    ).toEqual([]);
  });
});
