import { describe, expect, it } from 'vitest';
import { createPhoneRecognizer } from '../../../../src/anonymize/recognizers/phone.js';
import { found } from '../helpers.js';

const es = createPhoneRecognizer({ regions: ['ES', 'GB', 'US'] });

describe('phone recognizer', () => {
  it('finds Spanish numbers in the usual formats and normalises them to E.164', () => {
    for (const n of [
      '612 34 56 78',
      '612345678',
      '+34 612 345 678',
      '0034 612345678',
      '(+34) 612-345-678',
      '91 123 45 67',
    ]) {
      expect(found(es, `llámame al ${n} mañana`)).toEqual([n]);
    }
    expect(es.find('tel 612 34 56 78')[0]?.normalized).toBe('+34612345678');
  });
  it('uses the configured regions for national numbers and any region with a + prefix', () => {
    expect(found(es, 'call 020 7946 0018')).toEqual(['020 7946 0018']);
    expect(found(es, 'ring +33 6 12 34 56 78')).toEqual(['+33 6 12 34 56 78']);
    const onlyUs = createPhoneRecognizer({ regions: ['US'] });
    expect(found(onlyUs, 'mi móvil 612 34 56 78')).toEqual([]);
  });
  it('leaves dates, amounts, times, versions and invalid numbers', () => {
    expect(found(es, 'el 12/05/2024 a las 10:30 pagó 1.250.000 € por la versión 10.2.3.4; ref 123 456 789')).toEqual(
      [],
    );
  });
  it('scores order numbers that look like phones below the threshold', () => {
    expect(found(es, 'su pedido 612345678 ha salido')).toEqual([]);
    expect(found(es, 'order number 612345678 shipped')).toEqual([]);
  });
  it('boosts numbers introduced by a phone word', () => {
    const [plain] = es.find('612345678');
    const [cued] = es.find('teléfono: 612345678');
    expect(cued!.score).toBeGreaterThan(plain!.score);
  });
  it('does not take digit groups of an IBAN for a phone', () => {
    expect(found(es, 'IBAN ES91 2100 0418 4502 0005 1333')).toEqual([]);
  });
  it('leaves free-phone, shared-cost and premium service lines, and still takes personal numbers next to them', () => {
    const multi = createPhoneRecognizer({ regions: ['ES', 'GB', 'US', 'IE'] });
    const text =
      'Llama al 900 83 42 10 (gratuito) o al 902 12 34 56; UK 0800 123 4567, US 1-800-275-2273, IE 1800 123 456. Mi móvil: 612 34 56 78';
    expect(found(multi, text)).toEqual(['612 34 56 78']);
  });
});
