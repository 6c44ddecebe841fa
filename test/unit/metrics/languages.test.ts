/**
 * Languages beyond Spanish and English (issue 31, part 1): the sample's language is detected offline, recorded on
 * every scored result, and the English prompts name it and require their outputs in it.
 *
 * Real sentences: Articles 1 and 3 of the Universal Declaration of Human Rights in each language, after the
 * translations the UN Office of the High Commissioner for Human Rights publishes for free reproduction
 * (ohchr.org, "Universal Declaration of Human Rights — translations"). The questions are ours. Note that franc's
 * trigram profiles were themselves built from UDHR translations: these cases check ragwatch's wiring (what is
 * detected, recorded and named), the short and mixed cases below check the detector where it is weakest.
 */
import { describe, expect, it } from 'vitest';
import { scoreSample } from '../../../src/metrics/index.js';
import { detectSampleLanguage } from '../../../src/metrics/language-detect.js';
import { prepareSample } from '../../../src/metrics/prepare.js';
import { answerRelevancyRequest, faithfulnessRequest, promptVersion } from '../../../src/metrics/prompts/build.js';
import type { RagSample } from '../../../src/sample.js';
import { defaultMetricsOptions } from '../../helpers/config.js';
import { FakeEmbeddings, FakeJudge } from './fakes.js';

const options = defaultMetricsOptions();

const CASES: { code: string; name: string; question: string; answer: string; context: string }[] = [
  {
    code: 'fr',
    name: 'French',
    question: 'Quels droits la Déclaration reconnaît-elle à chaque personne ?',
    answer: 'Tout individu a droit à la vie, à la liberté et à la sûreté de sa personne.',
    context:
      'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de ' +
      'conscience et doivent agir les uns envers les autres dans un esprit de fraternité.',
  },
  {
    code: 'de',
    name: 'German',
    question: 'Welche Rechte hat laut der Erklärung jeder Mensch?',
    answer: 'Jeder hat das Recht auf Leben, Freiheit und Sicherheit der Person.',
    context:
      'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen ' +
      'begabt und sollen einander im Geist der Brüderlichkeit begegnen.',
  },
  {
    code: 'pt',
    name: 'Portuguese',
    question: 'Que direitos a Declaração reconhece a cada pessoa?',
    answer: 'Todo o indivíduo tem direito à vida, à liberdade e à segurança pessoal.',
    context:
      'Todos os seres humanos nascem livres e iguais em dignidade e em direitos. Dotados de razão e de ' +
      'consciência, devem agir uns para com os outros em espírito de fraternidade.',
  },
  {
    code: 'it',
    name: 'Italian',
    question: 'Quali diritti riconosce la Dichiarazione a ogni persona?',
    answer: 'Ogni individuo ha diritto alla vita, alla libertà ed alla sicurezza della propria persona.',
    context:
      'Tutti gli esseri umani nascono liberi ed eguali in dignità e diritti. Essi sono dotati di ragione e di ' +
      'coscienza e devono agire gli uni verso gli altri in spirito di fratellanza.',
  },
  {
    code: 'ca',
    name: 'Catalan',
    question: 'Quins drets reconeix la Declaració a cada persona?',
    answer: 'Tota persona té dret a la vida, a la llibertat i a la seguretat de la seva persona.',
    context:
      'Tots els éssers humans neixen lliures i iguals en dignitat i en drets. Són dotats de raó i de ' +
      'consciència, i han de comportar-se fraternalment els uns amb els altres.',
  },
];

const sampleOf = (c: { question: string; answer: string; context: string }, id = 't'): RagSample => ({
  traceId: id,
  question: c.question,
  answer: c.answer,
  contexts: [c.context],
  meta: {},
});

describe.each(CASES)('a sample in $name', (c) => {
  it('is detected, and the English prompts name its language and require the outputs in it', () => {
    const p = prepareSample(sampleOf(c), options);
    expect(p.sampleLanguage).toEqual({ code: c.code, name: c.name, source: 'detected' });
    expect(p.language).toBe('en');
    for (const request of [faithfulnessRequest(p), answerRelevancyRequest(p, 3)]) {
      const system = request.messages[0]!.content;
      expect(system).toContain(`The sample is in ${c.name}.`);
      expect(system).toContain(`Write every claim, statement and generated question in ${c.name}`);
      expect(system).not.toContain('Write claims, statements and questions in English.');
    }
    expect(promptVersion('faithfulness', p.language, p.named)).toMatch(new RegExp(`^${c.code}-[0-9a-f]{12}$`));
  });

  it('records the language on every scored result', async () => {
    const judge = new FakeJudge({
      ragwatch_faithfulness: () => ({ claims: [{ claim: c.answer, chunks: [1], verdict: 1 }] }),
      ragwatch_answer_relevancy: () => ({ questions: [{ question: c.question, noncommittal: 0 }] }),
    });
    const results = await scoreSample(sampleOf(c), ['faithfulness', 'answer_relevancy'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options: { ...options, answerRelevancyQuestions: 1 },
    });
    for (const r of results) {
      expect(r.status).toBe('scored');
      if (r.status === 'scored') {
        expect(r.language).toEqual({ code: c.code, name: c.name, source: 'detected' });
        expect(r.promptVersion.startsWith(`${c.code}-`)).toBe(true);
      }
    }
    expect(judge.requests.every((q) => q.messages[0]!.content.includes(`in ${c.name}`))).toBe(true);
  });
});

describe('Spanish, English, short and mixed texts', () => {
  it('keeps the native Spanish and English prompts, naming no other language', () => {
    const es = prepareSample(
      sampleOf({
        question: '¿Cómo cambio la domiciliación de mi cuota?',
        answer: 'Desde el área de cliente, en la sección de Pagos; el cambio se aplica a la siguiente factura.',
        context: '',
      }),
      options,
    );
    expect(es).toMatchObject({ language: 'es', sampleLanguage: { code: 'es', source: 'detected' } });
    expect(es.named).toBeUndefined();
    // A short English exchange trigrams alone read as German: the English function words decide.
    const en = prepareSample(
      sampleOf({
        question: 'How do I change my direct debit?',
        answer: 'From the customer area, under Payments.',
        context: '',
      }),
      options,
    );
    expect(en).toMatchObject({ language: 'en', sampleLanguage: { code: 'en', source: 'detected' } });
    expect(faithfulnessRequest(en).messages[0]!.content).toContain(
      'Write claims, statements and questions in English.',
    );
  });

  it('a short or mixed ES/EN text goes to the language that dominates it', () => {
    expect(
      detectSampleLanguage('¿Cómo reseteo el password del dashboard?\nVe a Settings y pulsa Reset password.'),
    ).toEqual({
      code: 'es',
      name: 'Spanish',
    });
    expect(detectSampleLanguage('¿Horario?\nDe 9 a 18 h.')).toEqual({ code: 'es', name: 'Spanish' });
    expect(detectSampleLanguage('Where is the invoice?\nEn tu área de cliente, in the Billing tab.')).toEqual({
      code: 'en',
      name: 'English',
    });
  });

  it('an undetermined sample is scored with the English fallback and says so', () => {
    const p = prepareSample(sampleOf({ question: 'ok', answer: '42', context: '' }), options);
    expect(p.sampleLanguage).toEqual({ code: 'und', name: 'undetermined', source: 'undetermined' });
    expect(p.language).toBe('en');
    expect(p.named).toBeUndefined();
  });

  it('metrics.allowedLanguages leaves a sample in another language not scorable, with the reason, and calls no judge', async () => {
    const judge = new FakeJudge({});
    const results = await scoreSample(sampleOf(CASES[1]!), ['faithfulness', 'answer_relevancy'], {
      judge,
      embeddings: new FakeEmbeddings(),
      options: { ...options, allowedLanguages: ['es', 'en'] },
    });
    expect(results).toEqual([
      { metric: 'faithfulness', status: 'not_scorable', reason: 'language_not_allowed: de' },
      { metric: 'answer_relevancy', status: 'not_scorable', reason: 'language_not_allowed: de' },
    ]);
    expect(judge.requests).toHaveLength(0);
  });

  it('a configured metrics.language fixes the prompts and is recorded as configured', () => {
    const p = prepareSample(sampleOf(CASES[0]!), { ...options, language: 'es' });
    expect(p).toMatchObject({ language: 'es', sampleLanguage: { code: 'es', source: 'configured' } });
  });
});
