import { describe, expect, it } from 'vitest';
import { validEmail } from '../../../../src/anonymize/validators/email.js';
import { luhnValid, plausibleCardNumber } from '../../../../src/anonymize/validators/luhn.js';
import { controlLetter, validDni, validNie } from '../../../../src/anonymize/validators/spanish-id.js';

describe('validators', () => {
  it('Luhn and card prefixes', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(plausibleCardNumber('4111111111111111')).toBe(true);
    expect(plausibleCardNumber('378282246310005')).toBe(true);
    expect(plausibleCardNumber('1234567812345670')).toBe(false);
  });
  it('mod-23 letters for DNI and NIE', () => {
    expect(controlLetter(12345678)).toBe('Z');
    expect(validDni('12345678Z')).toBe(true);
    expect(validDni('12345678A')).toBe(false);
    expect(validNie('X1234567L')).toBe(true);
    expect(validNie('Y1234567X')).toBe(true);
    expect(validNie('X1234567A')).toBe(false);
  });
  it('Unicode email structure', () => {
    expect(validEmail('josé.muñoz', 'correos.es')).toBe(true);
    expect(validEmail('ana', 'bücher.de')).toBe(true);
    expect(validEmail('a..b', 'x.com')).toBe(false);
    expect(validEmail('ana', 'localhost')).toBe(false);
    expect(validEmail('ana', '-x.com')).toBe(false);
  });
});
