import { describe, expect, it } from 'vitest';
import { dateOfBirthRecognizer } from '../../../../src/anonymize/recognizers/date-of-birth.js';
import { found } from '../helpers.js';

describe('date of birth recognizer', () => {
  it('finds dates next to a birth cue, in Spanish and English formats', () => {
    expect(found(dateOfBirthRecognizer, 'Fecha de nacimiento: 03/05/1985')).toEqual(['03/05/1985']);
    expect(found(dateOfBirthRecognizer, 'nací el 14 de febrero de 1991')).toEqual(['14 de febrero de 1991']);
    expect(found(dateOfBirthRecognizer, 'born April 9, 1972 in Cork')).toEqual(['April 9, 1972']);
    expect(found(dateOfBirthRecognizer, 'DOB 1989-07-22')).toEqual(['1989-07-22']);
  });
  it('leaves event dates', () => {
    expect(found(dateOfBirthRecognizer, 'El pedido llegó el 03/05/2024 y la factura es del 14 de febrero de 2024.')).toEqual([]);
  });
});
