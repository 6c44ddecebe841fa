import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shadowOf } from '../../../../src/anonymize/text/shadow.js';

const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff', '\u200e', '\u2062', '\ufe0f'];
const SPACES = ['\u00a0', '\u202f', '\u2007', '\u3000', '\u2009'];
const FULL_WIDTH = (d: string) => String.fromCharCode(0xff10 + Number(d));
const ARABIC_INDIC = (d: string) => String.fromCharCode(0x0660 + Number(d));

describe('shadowOf', () => {
  it('has no shadow for ASCII or ordinary accented text', () => {
    expect(shadowOf('Call +34 612 345 678, ana@x.es')).toBeUndefined();
    expect(shadowOf('Señora Muñoz, calle Íñigo 3, 2.º B — «vale»')).toBeUndefined();
  });

  it('drops invisible characters, turns spaces and digits of any width into ASCII, keeps º and ª', () => {
    const text = 'DNI １２３４\u200b５６７８Ｚ, tel\u00a0612\u00ad345\u202f678, 3.º 2ª, ٦١٢, e\u0301';
    const shadow = shadowOf(text)!;
    expect(shadow.text).toBe('DNI 12345678Z, tel 612345 678, 3.º 2ª, 612, é');
  });

  it('maps a span of the shadow back to the whole disguised value in the original', () => {
    const text = 'x \u200b1\u200d2３\u00ad4 y';
    const shadow = shadowOf(text)!;
    expect(shadow.text).toBe('x 1234 y');
    const s = shadow.text.indexOf('1234');
    expect(text.slice(shadow.start(s), shadow.end(s + 4))).toBe('1\u200d2３\u00ad4');
    // A span that ends at a changed character takes all of it; one that starts after dropped ones starts after them.
    expect(text.slice(shadow.start(s + 2), shadow.end(s + 3))).toBe('３');
    expect(text.slice(shadow.start(0), shadow.end(shadow.text.length))).toBe(text);
  });

  it('property: a disguised run of digits is found in the shadow and maps back to exactly its disguised form', () => {
    const words = fc
      .array(fc.constantFrom('a', 'ñ', 'É', ' ', ',', '\n', '\u00a0', 'ﬁ', '½', '\u200b'), { maxLength: 12 })
      .map((a) => a.join(''));
    const disguise = fc.constantFrom<(d: string) => string>(
      (d) => d,
      FULL_WIDTH,
      ARABIC_INDIC,
      (d) => d + INVISIBLE[Number(d) % INVISIBLE.length],
      (d) => d + SPACES[Number(d) % SPACES.length],
    );
    fc.assert(
      fc.property(
        words,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), disguise), { minLength: 1, maxLength: 12 }),
        words,
        (before, digits, after) => {
          const plain = digits.map(([d]) => String(d)).join('');
          const parts = digits.map(([d, f]) => f(String(d)));
          const value = parts.join('');
          const text = `${before}#${value}#${after}`;
          const shadow = shadowOf(text);
          const view = shadow?.text ?? text;
          const s = view.indexOf('#') + 1;
          const e = view.indexOf('#', s);
          expect(view.slice(s, e).replace(/ /g, '')).toBe(plain);
          const start = shadow ? shadow.start(s) : s;
          const end = shadow ? shadow.end(e) : e;
          // The original slice is the disguised value, possibly without dropped characters at its very end.
          expect(value.startsWith(text.slice(start, end))).toBe(true);
          expect(text.slice(start, end).replace(/[^\d\uff10-\uff19\u0660-\u0669]/g, '').length).toBe(plain.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: start and end are monotonic and stay inside the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const shadow = shadowOf(text);
        if (!shadow) return;
        let prev = 0;
        for (let s = 0; s < shadow.text.length; s++) {
          const a = shadow.start(s);
          const b = shadow.end(s + 1);
          expect(a).toBeGreaterThanOrEqual(prev);
          expect(b).toBeGreaterThan(a);
          expect(b).toBeLessThanOrEqual(text.length);
          prev = a;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('shadowOf pre-scan', () => {
  it('every character the pre-scan lets through is one the shadow leaves as it is', () => {
    for (let c = 0; c < 0x2100; c++) {
      if (c >= 0xd800) break;
      const ch = String.fromCharCode(c);
      const text = `a${ch}b`;
      const shadow = shadowOf(text);
      if (shadow !== undefined || c < 128) continue;
      expect(text.normalize('NFKC') === text || ch === 'º' || ch === 'ª', c.toString(16)).toBe(true);
      expect(/[\p{Cf}\p{Zs}\p{Nd}\u2010-\u2013\u2212]/u.test(ch), c.toString(16)).toBe(false);
    }
  });
});
