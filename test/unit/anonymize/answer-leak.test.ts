import { describe, expect, it } from 'vitest';
import { createAnswerLeakCheck } from '../../../src/anonymize/answer-leak.js';
import { parseConfig } from '../../helpers/config.js';

const check = createAnswerLeakCheck(parseConfig({}).anonymize);
const sample = (question: string, answer: string, contexts: string[] = []) => ({ question, answer, contexts });

describe('answer leak: personal data in the answer that the question and contexts did not hold', () => {
  it('flags an e-mail only the answer holds, counted by type and never by value', () => {
    const leak = check(
      sample(
        '¿Cómo cambio la cuenta de domiciliación?',
        'Desde el área de cliente. Si tienes dudas, escribe a marta.soler@example.net, que lleva tu caso.',
        ['La domiciliación bancaria se cambia desde el área de cliente, sección Pagos.'],
      ),
    );
    expect(leak).toEqual({ total: 1, byType: { EMAIL: 1 } });
    expect(JSON.stringify(leak)).not.toContain('marta');
  });

  it('does not flag values the question or a context held, however the answer spells them', () => {
    expect(
      check(
        sample(
          'Mi correo es Ana.Ruiz@Example.com y mi móvil 612 345 678',
          'Te escribiremos a ana.ruiz@example.com y al +34 612345678.',
        ),
      ),
    ).toEqual({ total: 0, byType: {} });
    expect(
      check(
        sample('¿Dónde pago?', 'Transfiere a ES9121000418450200051332, tarjeta 4111-1111-1111-1111.', [
          'Cuenta del titular: ES91 2100 0418 4502 0005 1332; tarjeta 4111 1111 1111 1111.',
        ]),
      ),
    ).toEqual({ total: 0, byType: {} });
  });

  it('counts each validated type and labelled identifiers, each distinct value once', () => {
    const leak = check(
      sample(
        'What is my account status?',
        'Your account is fine. Customer Ana: phone +44 7700 900456, IBAN ES91 2100 0418 4502 0005 1332, NIF 12345678Z, ' +
          'card 4111 1111 1111 1111, employee id E-48213. Again: +44 7700 900456.',
      ),
    );
    expect(leak.byType).toEqual({ PHONE: 1, IBAN: 1, ES_NIF: 1, CREDIT_CARD: 1, ID: 1 });
    expect(leak.total).toBe(5);
  });

  it('leaves out order numbers and other digit runs redacted only as a precaution, and names', () => {
    expect(
      check(
        sample(
          '¿Dónde está mi pedido?',
          'Hola Ana García, tu pedido 48213377 sale mañana con la referencia 99120033451.',
        ),
      ),
    ).toEqual({ total: 0, byType: {} });
    // Replaced by the identifier layer (deny by default), but no label names it and no validator confirms it.
    expect(check(sample('¿Qué hago ahora?', 'Guarda este número: 5821337712.'))).toEqual({ total: 0, byType: {} });
  });
});
