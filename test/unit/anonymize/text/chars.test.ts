import { describe, expect, it } from 'vitest';
import { collapseSpaces, digitsOf, isSpaceCode, withoutSpacesAndDashes } from '../../../../src/anonymize/text/chars.js';
import { fold, mapNonAscii } from '../../../../src/anonymize/text/fold.js';

describe('character helpers (regex-free versions of common replacements)', () => {
  it("isSpaceCode is JavaScript's \\s on every BMP code unit", () => {
    for (let c = 0; c < 65536; c++) expect(isSpaceCode(c), c.toString(16)).toBe(/\s/.test(String.fromCharCode(c)));
  });

  it('digitsOf, withoutSpacesAndDashes and collapseSpaces match the replacements they stand for', () => {
    const samples = [
      '+34 (612) 345-678',
      '',
      'abc',
      '0034 612 34 56 78',
      'ES91 2100-0418 4502',
      '12\u00a0345',
      ' a \t b\n\nc\u3000d  ',
    ];
    for (const s of samples) {
      expect(digitsOf(s)).toBe(s.replace(/\D/g, ''));
      expect(withoutSpacesAndDashes(s)).toBe(s.replace(/[ -]/g, ''));
      expect(collapseSpaces(s)).toBe(s.replace(/\s+/g, ' '));
    }
  });

  it('mapNonAscii rewrites only non-ASCII code units and keeps ASCII runs', () => {
    expect(mapNonAscii('año €5 ñu', (c) => `[${c.toString(16)}]`)).toBe('a[f1]o [20ac]5 [f1]u');
    const plain = 'plain ascii';
    expect(mapNonAscii(plain, () => '?')).toBe(plain);
    expect(fold('Ñoño GARCÍA Straße')).toBe('nono garcia straße');
  });
});
