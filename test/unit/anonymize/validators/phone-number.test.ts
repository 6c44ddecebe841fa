import { describe, expect, it } from 'vitest';
import { createPhoneValidator } from '../../../../src/anonymize/validators/phone-number.js';

/** Deterministic pseudo-random numbers (LCG), so a failure names a reproducible number. */
function generator(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  return { next, digits, pick };
}

// Calling codes of single-country plans, shared plans (+1, +44, +7), plans with transform rules (+54, +55) and
// non-geographic ones (+800, +882).
const CALLING_CODES = [
  '34',
  '44',
  '1',
  '33',
  '49',
  '351',
  '39',
  '52',
  '54',
  '55',
  '61',
  '31',
  '353',
  '41',
  '7',
  '380',
  '800',
  '882',
  '1268',
];
const REGION_SETS = [
  ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'],
  ['GB'],
  ['US'],
  ['AR', 'BR', 'ES'],
  ['CA', 'AU', 'NL', 'IE', 'CH', 'IN', 'JP'],
];

function sample(g: ReturnType<typeof generator>): string {
  const len = 6 + Math.floor(g.next() * 8);
  const cc = g.pick(CALLING_CODES);
  switch (Math.floor(g.next() * 8)) {
    case 0:
      return g.digits(len);
    case 1:
      return `0${g.digits(len)}`;
    case 2:
      return `+${cc} ${g.digits(len)}`;
    case 3:
      return `${g.pick(['1', '6', '7', '9'])}${g.digits(len)}`;
    case 4:
      return `00${cc} ${g.digits(len)}`;
    case 5:
      return `(+${cc}) ${g.digits(3)}-${g.digits(3)}-${g.digits(len - 6)}`;
    case 6:
      return `011 ${cc}${g.digits(len)}`;
    default:
      return `${cc} ${g.digits(len)}`;
  }
}

describe('phone number validator (compiled metadata patterns)', () => {
  it('gives the same verdict, E.164 form and number type as libphonenumber-js on thousands of numbers', () => {
    const g = generator(20240611);
    let valid = 0;
    for (const regions of REGION_SETS) {
      const fast = createPhoneValidator(regions);
      const reference = createPhoneValidator(regions, { compiled: false });
      for (let i = 0; i < 3000; i++) {
        const raw = sample(g);
        const expected = reference.validate(raw);
        if (expected !== undefined) valid++;
        expect(fast.validate(raw), `${raw} in ${regions.join(',')}`).toEqual(expected);
      }
    }
    // The sample must exercise valid numbers too, not only rejections.
    expect(valid).toBeGreaterThan(1000);
  });

  it('agrees with libphonenumber-js on numbers typed with their own calling code but no "+" ("34612345678")', () => {
    const g = generator(20261129);
    const own: Record<string, string> = {
      ES: '34',
      GB: '44',
      US: '1',
      FR: '33',
      DE: '49',
      PT: '351',
      IT: '39',
      MX: '52',
      AR: '54',
      BR: '55',
      AU: '61',
    };
    let stripped = 0;
    for (const regions of [
      ['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX'],
      ['GB'],
      ['US'],
      ['DE'],
      ['IT'],
      ['AR', 'BR', 'ES'],
      ['AU'],
    ]) {
      const fast = createPhoneValidator(regions);
      const reference = createPhoneValidator(regions, { compiled: false });
      for (let i = 0; i < 1500; i++) {
        const region = g.pick(regions);
        const national = `${g.pick(['', '0', '6', '7', '9', '2', '3'])}${g.digits(5 + Math.floor(g.next() * 8))}`;
        const raw = g.next() < 0.5 ? `${own[region]}${national}` : `${own[region]} ${national}`;
        const expected = reference.validate(raw);
        if (expected !== undefined && !expected.e164.startsWith(`+${own[region]}${own[region]}`)) stripped++;
        expect(fast.validate(raw), `${raw} in ${regions.join(',')}`).toEqual(expected);
      }
    }
    expect(stripped).toBeGreaterThan(300);
  });

  it('normalises national and international spellings of one number to the same E.164', () => {
    const v = createPhoneValidator(['ES', 'GB', 'US']);
    const e164 = (raw: string) => v.validate(raw)?.e164;
    expect(e164('612 34 56 78')).toBe('+34612345678');
    expect(e164('+34 612 345 678')).toBe('+34612345678');
    expect(e164('0034 612345678')).toBe('+34612345678');
    expect(e164('(+34) 612-345-678')).toBe('+34612345678');
    expect(e164('07911 123456')).toBe('+447911123456');
    expect(e164('+44 7911 123456')).toBe('+447911123456');
    expect(e164('(415) 555-2671')).toBe('+14155552671');
    expect(v.validate('100 200 300')).toBeUndefined();
  });

  it('tells service lines from personal numbers', () => {
    const v = createPhoneValidator(['ES', 'GB', 'US']);
    expect(v.validate('900 83 42 10')?.type).toBe('TOLL_FREE');
    expect(v.validate('902 12 34 56')?.type).toBe('SHARED_COST');
    expect(v.validate('0800 123 4567')?.type).toBe('TOLL_FREE');
    expect(v.validate('1-800-275-2273')?.type).toBe('TOLL_FREE');
    expect(v.validate('612 34 56 78')?.type).toBe('MOBILE');
    expect(v.validate('91 123 45 67')?.type).toBe('FIXED_LINE');
  });
});
