import { isValidIBAN, electronicFormatIBAN } from 'ibantools';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { dniFor, ibanCheckDigits, luhnComplete, makePerson, nieFor } from '@ragwatch/devkit/corpus/pii.js';
import { createRng } from '@ragwatch/devkit/corpus/random.js';

function luhnValid(digits: string): boolean {
  let sum = 0;
  digits
    .split('')
    .reverse()
    .forEach((d, i) => {
      let n = Number(d);
      if (i % 2 === 1) {
        n *= 2;
        if (n > 9) n -= 9;
      }
      sum += n;
    });
  return sum % 10 === 0;
}

describe('demo personal data', () => {
  it('computes DNI/NIE check letters and IBAN check digits as the standards define them', () => {
    expect(dniFor('12345678')).toBe('12345678Z');
    expect(nieFor('X', '1234567')).toBe('X1234567L');
    expect(ibanCheckDigits('ES', '21000418450200051332')).toBe('91');
    expect(luhnComplete('411111111111111')).toBe('4111111111111111');
  });

  it('draws well-formed identifiers that a validating recognizer accepts', () => {
    const rng = createRng('pii-test');
    const letters = 'TRWAGMYFPDXBNJZSQVHLCKE';
    for (let i = 0; i < 200; i++) {
      const person = makePerson(rng, i % 3 === 0 ? 'en' : 'es');
      expect(isValidIBAN(electronicFormatIBAN(person.iban) ?? ''), person.iban).toBe(true);
      expect(luhnValid(person.card.replace(/\D/g, '')), person.card).toBe(true);
      expect(isValidPhoneNumber(person.phone, person.locale === 'es' ? 'ES' : 'GB'), person.phone).toBe(true);
      expect(person.email).toMatch(/^[a-z0-9._]+@[a-z0-9.]+\.[a-z]+$/);
      if (person.locale === 'es') {
        const id = person.idDocument!;
        const digits =
          id.kind === 'dni' ? id.value.slice(0, 8) : `${'XYZ'.indexOf(id.value[0]!)}${id.value.slice(1, 8)}`;
        expect(id.value.at(-1), id.value).toBe(letters[Number(digits) % 23]);
        expect(person.address).toMatch(/, \d{5} /);
      } else {
        expect(person.idDocument).toBeUndefined();
      }
    }
  });

  it('is reproducible from the seed', () => {
    expect(makePerson(createRng(9), 'es')).toEqual(makePerson(createRng(9), 'es'));
    expect(makePerson(createRng(9), 'es')).not.toEqual(makePerson(createRng(10), 'es'));
  });
});
