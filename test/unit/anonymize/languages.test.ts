/**
 * Structured identifiers planted in real French, German, Portuguese, Italian and Catalan sentences are all
 * replaced (issue 31, part 1). Sentences: Article 3 of the Universal Declaration of Human Rights, after the
 * translations the UN OHCHR publishes for free reproduction; the planted values and the lead-in are ours.
 */
import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { parseConfig } from '../../helpers/config.js';

const anonymizer = createAnonymizer(parseConfig({}).anonymize);

const VALUES = {
  email: 'claire.martin@example.org',
  phone: '+34 612 345 678',
  iban: 'ES91 2100 0418 4502 0005 1332',
  card: '4111 1111 1111 1111',
};

const SENTENCES: Record<string, { sentence: string; lead: (v: typeof VALUES) => string; person: string }> = {
  fr: {
    sentence: 'Tout individu a droit à la vie, à la liberté et à la sûreté de sa personne.',
    lead: (v) => `Écrivez à ${v.email} ou appelez le ${v.phone}; compte ${v.iban}, carte ${v.card}.`,
    person: 'Je m’appelle Claire Martin.',
  },
  de: {
    sentence: 'Jeder hat das Recht auf Leben, Freiheit und Sicherheit der Person.',
    lead: (v) => `Schreiben Sie an ${v.email} oder rufen Sie ${v.phone} an; Konto ${v.iban}, Karte ${v.card}.`,
    person: 'Mein Name ist Jonas Becker.',
  },
  pt: {
    sentence: 'Todo o indivíduo tem direito à vida, à liberdade e à segurança pessoal.',
    lead: (v) => `Escreva para ${v.email} ou ligue para ${v.phone}; conta ${v.iban}, cartão ${v.card}.`,
    person: 'O meu nome é João Ferreira.',
  },
  it: {
    sentence: 'Ogni individuo ha diritto alla vita, alla libertà ed alla sicurezza della propria persona.',
    lead: (v) => `Scrivete a ${v.email} o chiamate il ${v.phone}; conto ${v.iban}, carta ${v.card}.`,
    person: 'Mi chiamo Giulia Rossi.',
  },
  ca: {
    sentence: 'Tota persona té dret a la vida, a la llibertat i a la seguretat de la seva persona.',
    lead: (v) => `Escriviu a ${v.email} o truqueu al ${v.phone}; compte ${v.iban}, targeta ${v.card}.`,
    person: 'Em dic Jordi Puig.',
  },
};

const compact = (s: string) => s.replace(/\s+/g, '');

describe.each(Object.entries(SENTENCES))('anonymizing a %s sample', (_code, s) => {
  it('replaces every planted e-mail, phone, IBAN and card', () => {
    const out = anonymizer.anonymizeText(`${s.sentence} ${s.lead(VALUES)}`).text;
    for (const v of Object.values(VALUES)) {
      expect(out).not.toContain(v);
      expect(compact(out)).not.toContain(compact(v));
    }
    expect(out).toContain(s.sentence);
    expect(out).toMatch(/<EMAIL_1>.*<PHONE_1>.*<IBAN_1>.*<CREDIT_CARD_1>/);
  });
});

/** Person recall in these languages, measured (the name recognizers are Spanish and English): printed, not assumed. */
it('reports person recall on the five languages', () => {
  const found = Object.entries(SENTENCES).map(([code, s]) => {
    const out = anonymizer.anonymizeText(`${s.person} ${s.sentence}`).text;
    return [code, out.includes('<PERSON_1>')] as const;
  });
  console.log(
    `person recall: ${found.filter(([, f]) => f).length}/${found.length} (${found.map(([c, f]) => `${c}:${f ? 'yes' : 'no'}`).join(' ')})`,
  );
  expect(found).toHaveLength(5);
});
