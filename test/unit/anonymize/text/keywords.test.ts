import { describe, expect, it } from 'vitest';
import { factsOf } from '../../../../src/anonymize/text/facts.js';
import { findKeywords, keywordsOf } from '../../../../src/anonymize/text/keywords.js';
import { matchAtStarts, windowsAfter } from '../../../../src/anonymize/text/windows.js';

describe('findKeywords', () => {
  it('sorts word-start keywords into the recognizers they trigger', () => {
    const text = 'Vivo en Calle Mayor 3. Mi contraseña: X1. Fecha de nacimiento: 1/2/1990';
    const hits = findKeywords(text);
    expect(hits.street).toEqual([text.indexOf('Calle')]);
    expect(hits.secretKey).toEqual([text.indexOf('contraseña')]);
    expect(hits.birth).toEqual([text.indexOf('nacimiento'), text.indexOf('nacimiento') + 3]);
  });

  it('finds keys after an underscore, as in environment variables', () => {
    const text = 'DB_PASSWORD=hunter22 and api_key=abc';
    expect(findKeywords(text).secretKey).toEqual([3, text.indexOf('api')]);
  });

  it('takes words only from their start: no street in "aplazar", no PIN in "opinión"', () => {
    expect(findKeywords('Hay que aplazar la opinión del cumple').street).toEqual([]);
    expect(findKeywords('Hay que aplazar la opinión').secretKey).toEqual([]);
  });

  it('reads "Passeig" as a street type, not a password key', () => {
    const hits = findKeywords('Passeig de Gràcia 21');
    expect(hits.street).toEqual([0]);
    expect(hits.secretKey).toEqual([]);
  });

  it('is found once per text and kept with its facts', () => {
    const text = 'PIN 1234';
    const facts = factsOf(text);
    const first = keywordsOf(text, facts);
    expect(keywordsOf(text, facts)).toBe(first);
    expect(first.secretKey).toEqual([0]);
  });
});

describe('matchAtStarts', () => {
  it('tries a sticky pattern only at the given starts and skips starts inside a match', () => {
    const text = 'calle calle uno 1, calle dos 2';
    const pattern = /calle(?: \p{L}+)+ \d/uy;
    const found = matchAtStarts(text, [0, 6, 12, 19], pattern).map((m) => [m.index, m[0]]);
    expect(found).toEqual([
      [0, 'calle calle uno 1'],
      [19, 'calle dos 2'],
    ]);
  });

  it('refuses a pattern that is not sticky (it would scan past the start)', () => {
    expect(() => matchAtStarts('x', [0], /x/g)).toThrow(/sticky/);
  });
});

describe('windowsAfter', () => {
  it('opens a window from each hit to some characters after it, merging windows that touch', () => {
    expect(windowsAfter('x'.repeat(100), [0, 3, 5, 8, 60, 63], 10)).toEqual([0, 18, 60, 73]);
    expect(windowsAfter('x'.repeat(20), [15, 18], 10)).toEqual([15, 20]);
  });
});
