import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { parseConfig } from '../../helpers/config.js';

/** Spanish address forms the street patterns cut short. Default configuration; every value is invented for this file. */
const anonymizer = createAnonymizer(parseConfig({}).anonymize);
const out = (text: string) => anonymizer.anonymizeText(text).text;

describe('Spanish addresses go whole', () => {
  it('towns of several words ("de la", "de los") or two names with a slash', () => {
    expect(out('Domicilio: Calle de Ramón y Cajal 12, 3.º B, 12003 Castelló de la Plana.')).toBe(
      'Domicilio: <ADDRESS_1>.',
    );
    expect(out("Domicilio: Avda. O'Donnell 40, piso 2, pta. 3, 28703 San Sebastián de los Reyes.")).toBe(
      'Domicilio: <ADDRESS_1>.',
    );
    expect(out('Domicilio: C/ Sabino Arana, nº 7, 20001 Donostia/San Sebastián.')).toBe('Domicilio: <ADDRESS_1>.');
  });

  it('"s/n" after a comma, "km 12", "parcela 14", " - 2º Dcha." and "2ª planta"', () => {
    expect(out('Envío a C/ Mayor, s/n, 24001 León.')).toBe('Envío a <ADDRESS_1>.');
    expect(out('Entrega en Ctra. de Extremadura km 12, 28935 Móstoles.')).toBe('Entrega en <ADDRESS_1>.');
    expect(out('Residencia: Urb. Los Pinos, parcela 14, 29600 Marbella.')).toBe('Residencia: <ADDRESS_1>.');
    expect(out('Vivo en Calle Real, 14 - 2º Dcha. 39001 Santander.')).toBe('Vivo en <ADDRESS_1>.');
    expect(out('vivo en calle Sierpes 12, 2ª planta, Sevilla.')).toBe('vivo en <ADDRESS_1>.');
  });

  it('a number after a street word in prose is still no address', () => {
    const keep = 'La calle tiene 12 farolas - 2 fundidas; km 12 de la ruta, parcela 14 del catastro.';
    expect(out(keep)).toBe(keep);
  });
});
