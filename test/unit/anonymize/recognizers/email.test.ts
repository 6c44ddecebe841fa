import { describe, expect, it } from 'vitest';
import { emailRecognizer } from '../../../../src/anonymize/recognizers/email.js';
import { found } from '../helpers.js';

describe('email recognizer', () => {
  it('keeps accented local parts and IDN domains whole', () => {
    expect(found(emailRecognizer, 'escribe a josé.muñoz@correos.es o a ana@bücher.de')).toEqual([
      'josé.muñoz@correos.es',
      'ana@bücher.de',
    ]);
    expect(found(emailRecognizer, 'punycode: ana@xn--bcher-kva.de.')).toEqual(['ana@xn--bcher-kva.de']);
  });
  it('normalises to lower case for the pseudonym key', () => {
    const [c] = emailRecognizer.find('ANA.LOPEZ@GMAIL.COM');
    expect(c?.normalized).toBe('ana.lopez@gmail.com');
  });
  it('ignores handles, decorators and broken addresses', () => {
    expect(found(emailRecognizer, 'sígueme en @marta_dev, usa @Component y escribe a a..b@x.com o a foo@bar')).toEqual(
      [],
    );
  });
  it('trims trailing punctuation and quotes', () => {
    expect(found(emailRecognizer, "('ana+promo@x.co.uk'), gracias.")).toEqual(['ana+promo@x.co.uk']);
  });
  it("leaves an organisation's role mailboxes, but not the same local part on a free mail provider", () => {
    expect(
      found(emailRecognizer, 'Escribe a soporte@lumora.es, privacy@shop.co.uk, no-reply@bank.com o support+es@acme.io'),
    ).toEqual([]);
    expect(found(emailRecognizer, 'mi correo es info@gmail.com y el de mi hermana soporte.ana@empresa.es')).toEqual([
      'info@gmail.com',
      'soporte.ana@empresa.es',
    ]);
  });
  it('stays linear on long runs without a domain', () => {
    const text = `${'a'.repeat(200_000)}@@@${'b'.repeat(200_000)}`;
    expect(found(emailRecognizer, text)).toEqual([]);
  });
});
