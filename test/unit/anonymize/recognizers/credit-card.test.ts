import { describe, expect, it } from 'vitest';
import { creditCardRecognizer } from '../../../../src/anonymize/recognizers/credit-card.js';
import { found } from '../helpers.js';

describe('credit card recognizer', () => {
  it('finds Luhn-valid numbers of known networks in the usual groupings', () => {
    expect(found(creditCardRecognizer, 'tarjeta 4111 1111 1111 1111 caduca 12/26')).toEqual(['4111 1111 1111 1111']);
    expect(found(creditCardRecognizer, 'card 5500-0000-0000-0004')).toEqual(['5500-0000-0000-0004']);
    expect(found(creditCardRecognizer, 'amex 3782 822463 10005')).toEqual(['3782 822463 10005']);
    expect(creditCardRecognizer.find('4111-1111-1111-1111')[0]?.normalized).toBe('4111111111111111');
  });
  it('drops a trailing number that is not part of the card', () => {
    expect(found(creditCardRecognizer, '4111 1111 1111 1111 123')).toEqual(['4111 1111 1111 1111']);
  });
  it('rejects Luhn failures and Luhn-valid numbers without a card prefix', () => {
    expect(found(creditCardRecognizer, '4111 1111 1111 1112 y 0000 0000 0000 0000 y 1234567812345670')).toEqual([]);
  });
});
