import { describe, expect, it } from 'vitest';
import { addressRecognizer } from '../../../../src/anonymize/recognizers/address.js';
import { found } from '../helpers.js';

describe('address recognizer', () => {
  it('finds Spanish street forms with number, floor, postcode and city', () => {
    expect(found(addressRecognizer, 'vivo en C/ Mayor 23, 4º B, 30001 Murcia desde 2019')).toEqual([
      'C/ Mayor 23, 4º B, 30001 Murcia',
    ]);
    expect(found(addressRecognizer, 'Avda. de la Constitución 12, 41004 Sevilla')).toEqual([
      'Avda. de la Constitución 12, 41004 Sevilla',
    ]);
    expect(found(addressRecognizer, 'Carrer de Provença 286, 3r 1a, 08008 Barcelona')).toEqual([
      'Carrer de Provença 286, 3r 1a, 08008 Barcelona',
    ]);
  });
  it('finds Spanish addresses without a street type when a postcode and a place follow the number', () => {
    expect(found(addressRecognizer, 'Oficina: Gran Vía 180, 15027 A Coruña (horario de 9 a 14)')).toEqual([
      'Gran Vía 180, 15027 A Coruña',
    ]);
    expect(found(addressRecognizer, 'Pedido 1234, 28014 Madrid')).toEqual([]);
  });
  it('reads Catalan street types, "Passeig" included', () => {
    expect(found(addressRecognizer, 'Passeig de Gràcia 21, 08007 Barcelona')).toEqual([
      'Passeig de Gràcia 21, 08007 Barcelona',
    ]);
  });
  it('finds lower-case addresses only after a residence cue', () => {
    expect(found(addressRecognizer, 'mi dirección es calle mayor 12')).toEqual(['calle mayor 12']);
    expect(found(addressRecognizer, 'la calle estaba cortada 3 horas')).toEqual([]);
  });
  it('finds English street addresses', () => {
    expect(found(addressRecognizer, 'send it to 221 Kingsley Road, Apt 4B, Boston, MA 02118 please')).toEqual([
      '221 Kingsley Road, Apt 4B, Boston, MA 02118',
    ]);
    expect(found(addressRecognizer, 'at 14 Marlowe Street, Leeds LS6 2QB')).toEqual([
      '14 Marlowe Street, Leeds LS6 2QB',
    ]);
  });
  it('leaves streets named without a number and prices', () => {
    expect(found(addressRecognizer, 'La Gran Vía y la Plaza Mayor estarán cortadas; la tarifa cuesta 29,90 €')).toEqual(
      [],
    );
  });
});

describe('address forms of other regions and writers', () => {
  it('reads Spanish abbreviations with n.º, piso, pta. and esc.', () => {
    expect(found(addressRecognizer, 'en Rda. Goya, n.º 16, 06006 Badajoz ayer')).toEqual([
      'Rda. Goya, n.º 16, 06006 Badajoz',
    ]);
    expect(found(addressRecognizer, 'Gta. San Fernando 59, piso 9, pta. 8, 06094 Badajoz')).toEqual([
      'Gta. San Fernando 59, piso 9, pta. 8, 06094 Badajoz',
    ]);
    expect(found(addressRecognizer, 'Calzada de la Estación, núm. 159, esc. 1, 3.º B')).toEqual([
      'Calzada de la Estación, núm. 159, esc. 1, 3.º B',
    ]);
  });
  it('reads Latin American units, districts, postcodes and grid streets', () => {
    expect(found(addressRecognizer, 'domicilio Av. Corrientes 1744, piso 1, dto. B, C5407BCE CABA · cita')).toEqual([
      'Av. Corrientes 1744, piso 1, dto. B, C5407BCE CABA',
    ]);
    expect(
      found(addressRecognizer, 'vive en Av. Insurgentes Sur 1281, int. B, Col. Obispado, C.P. 59817, Ciudad de México'),
    ).toEqual(['Av. Insurgentes Sur 1281, int. B, Col. Obispado, C.P. 59817, Ciudad de México']);
    expect(found(addressRecognizer, 'domicilio Calle 10 # 58-51, apto. 1079, Medellín')).toEqual([
      'Calle 10 # 58-51, apto. 1079, Medellín',
    ]);
  });
  it('reads UK addresses with a building name, and without a street type before a postcode', () => {
    expect(found(addressRecognizer, 'Flat 26, Belmont Lodge, 50 Pembroke Crescent, Brighton BN2 7BS')).toEqual([
      'Flat 26, Belmont Lodge, 50 Pembroke Crescent, Brighton BN2 7BS',
    ]);
    expect(found(addressRecognizer, 'moved to 107 Queensway, Derby DE1 5BH last year')).toEqual([
      '107 Queensway, Derby DE1 5BH',
    ]);
  });
  it("leaves a public place's own address", () => {
    expect(
      found(addressRecognizer, 'hand it in at the Metropolitan Museum of Art (1000 Fifth Avenue, New York, NY 10028)'),
    ).toEqual([]);
    expect(
      found(addressRecognizer, 'frente al Centro Cultural La Moneda (Plaza de la Ciudadanía 26, Santiago)'),
    ).toEqual([]);
  });
  it('stops before an ID that follows on the same line', () => {
    expect(found(addressRecognizer, 'Domicilio: Calle Olmo 5, 3.º B, 28012 Madrid, NIE X1234567L')).toEqual([
      'Calle Olmo 5, 3.º B, 28012 Madrid',
    ]);
  });
});
