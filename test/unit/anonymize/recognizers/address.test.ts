import { describe, expect, it } from 'vitest';
import { addressRecognizer } from '../../../../src/anonymize/recognizers/address.js';
import { found } from '../helpers.js';

describe('address recognizer', () => {
  it('finds Spanish street forms with number, floor, postcode and city', () => {
    expect(found(addressRecognizer, 'vivo en C/ Mayor 23, 4º B, 30001 Murcia desde 2019')).toEqual(['C/ Mayor 23, 4º B, 30001 Murcia']);
    expect(found(addressRecognizer, 'Avda. de la Constitución 12, 41004 Sevilla')).toEqual(['Avda. de la Constitución 12, 41004 Sevilla']);
    expect(found(addressRecognizer, 'Carrer de Provença 286, 3r 1a, 08008 Barcelona')).toEqual(['Carrer de Provença 286, 3r 1a, 08008 Barcelona']);
  });
  it('finds Spanish addresses without a street type when a postcode and a place follow the number', () => {
    expect(found(addressRecognizer, 'Oficina: Gran Vía 180, 15027 A Coruña (horario de 9 a 14)')).toEqual(['Gran Vía 180, 15027 A Coruña']);
    expect(found(addressRecognizer, 'Pedido 1234, 28014 Madrid')).toEqual([]);
  });
  it('reads Catalan street types, "Passeig" included', () => {
    expect(found(addressRecognizer, 'Passeig de Gràcia 21, 08007 Barcelona')).toEqual(['Passeig de Gràcia 21, 08007 Barcelona']);
  });
  it('finds lower-case addresses only after a residence cue', () => {
    expect(found(addressRecognizer, 'mi dirección es calle mayor 12')).toEqual(['calle mayor 12']);
    expect(found(addressRecognizer, 'la calle estaba cortada 3 horas')).toEqual([]);
  });
  it('finds English street addresses', () => {
    expect(found(addressRecognizer, 'send it to 221 Kingsley Road, Apt 4B, Boston, MA 02118 please')).toEqual(['221 Kingsley Road, Apt 4B, Boston, MA 02118']);
    expect(found(addressRecognizer, 'at 14 Marlowe Street, Leeds LS6 2QB')).toEqual(['14 Marlowe Street, Leeds LS6 2QB']);
  });
  it('leaves streets named without a number and prices', () => {
    expect(found(addressRecognizer, 'La Gran Vía y la Plaza Mayor estarán cortadas; la tarifa cuesta 29,90 €')).toEqual([]);
  });
});
