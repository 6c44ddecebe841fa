import { describe, expect, it } from 'vitest';
import { dateOfBirthRecognizer, isoDate } from '../../../../src/anonymize/recognizers/date-of-birth.js';
import { found } from '../helpers.js';

describe('date of birth recognizer', () => {
  it('finds dates next to a birth cue, in Spanish and English formats', () => {
    expect(found(dateOfBirthRecognizer, 'Fecha de nacimiento: 03/05/1985')).toEqual(['03/05/1985']);
    expect(found(dateOfBirthRecognizer, 'nací el 14 de febrero de 1991')).toEqual(['14 de febrero de 1991']);
    expect(found(dateOfBirthRecognizer, 'born April 9, 1972 in Cork')).toEqual(['April 9, 1972']);
    expect(found(dateOfBirthRecognizer, 'DOB 1989-07-22')).toEqual(['1989-07-22']);
  });
  it('leaves event dates', () => {
    expect(
      found(dateOfBirthRecognizer, 'El pedido llegó el 03/05/2024 y la factura es del 14 de febrero de 2024.'),
    ).toEqual([]);
  });
  it('gives a birth cue to the first date after it only, not to the event dates that follow', () => {
    expect(found(dateOfBirthRecognizer, 'Fecha de nacimiento: 03/05/1985, alta: 12/04/2024')).toEqual(['03/05/1985']);
    expect(found(dateOfBirthRecognizer, 'DOB 03/05/1985, joined 12/04/2024')).toEqual(['03/05/1985']);
    expect(found(dateOfBirthRecognizer, 'nacido el 03/05/1985 en Bilbao, ingresó el 01/02/2020')).toEqual([
      '03/05/1985',
    ]);
    expect(found(dateOfBirthRecognizer, 'F. nac.: 03/05/1985')).toEqual(['03/05/1985']);
  });
  it("leaves an organisation's birthday", () => {
    expect(
      found(dateOfBirthRecognizer, 'Cumpleaños de la empresa: 12/04/1987. Our store’s birthday is June 3, 2015.'),
    ).toEqual([]);
  });
});

describe('date of birth keys', () => {
  it('keys every written form on the ISO date, with the month-first reading as an alternative when both fit', () => {
    expect(isoDate('28th August 1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('28-ago-1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('August 28th, 1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('28 de agosto de 1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('1942-08-28')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('28/08/1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('08/28/1942')).toEqual({ iso: '1942-08-28' });
    expect(isoDate('06.05.78')).toEqual({ iso: '1978-05-06', alt: '1978-06-05' });
    expect(isoDate('31/31/1999')).toBeUndefined();
  });
  it('finds Spanish and English short month names after a cue', () => {
    expect(found(dateOfBirthRecognizer, 'nacida el 8-may-1958 en Soria')).toEqual(['8-may-1958']);
    expect(found(dateOfBirthRecognizer, 'DOB: 19-Oct-1936')).toEqual(['19-Oct-1936']);
  });
});
