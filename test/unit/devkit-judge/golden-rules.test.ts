import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { goldenRules } from '@ragwatch/devkit/judge/rules/golden.js';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';
import type { StructuredRequest } from '../../../src/judge/types.js';
import {
  adversarialRequest,
  closedBookRequest,
  questionsRequest,
  referencesRequest,
  supportRequest,
} from '../../../src/golden/prompts/build.js';

const ajv = new Ajv({ strict: false });

/** What the stand-in's rules see of one of ragwatch's golden requests, and the parsed answer of the matching rule. */
function answer<T>(request: StructuredRequest<T>): T {
  const view: JudgeRequest = {
    body: {},
    model: 'm',
    messages: request.messages,
    system: request.messages[0]!.content,
    lastUser: request.messages[1]!.content,
    mode: 'json_schema',
    schemaName: request.name,
    schema: request.schema,
  };
  const rule = goldenRules.find((r) => r.matches(view))!;
  const value = rule.answer(view);
  expect(ajv.validate(request.schema, value), JSON.stringify(ajv.errors)).toBe(true);
  return request.parse(value);
}

const hub =
  'The Lumora Hub speaks Zigbee 3.0, Thread and Matter. It supports up to 120 paired devices and costs 149 euros. A backup battery keeps it running for about 4 hours.';
const es =
  'El Lumora Hub admite hasta 120 dispositivos emparejados y cuesta 149 €. Su batería de respaldo dura unas 4 horas.';

describe('judge stand-in: golden-set rules', () => {
  it('writes one question per sentence, in the chunks’ language, some trivial or ambiguous by position', () => {
    const en = answer(questionsRequest({ texts: [hub], language: 'en', budgetTokens: 500 }, 'single-hop', 4));
    expect(en).toHaveLength(4);
    expect(en.filter((q) => q.startsWith('Is it true that'))).toHaveLength(1);
    expect(en.every((q) => q.endsWith('?'))).toBe(true);
    const spanish = answer(questionsRequest({ texts: [es], language: 'es', budgetTokens: 500 }, 'single-hop', 2));
    expect(spanish.every((q) => q.startsWith('¿'))).toBe(true);
    const multi = answer(questionsRequest({ texts: [hub, es], language: 'en', budgetTokens: 500 }, 'multi-hop', 1));
    expect(multi[0]).toMatch(/ and /);
    expect(answer(questionsRequest({ texts: [hub], language: 'en', budgetTokens: 500 }, 'single-hop', 4))).toEqual(en);
  });

  it('answers each question from the best-covering sentence; none covering: not answerable', () => {
    const refs = answer(
      referencesRequest({ texts: [hub], language: 'en', budgetTokens: 500 }, [
        'How many paired devices does the Lumora Hub support?',
        'What is the price of a Tesla?',
      ]),
    );
    expect(refs[0]).toEqual({ answerable: true, answer: 'It supports up to 120 paired devices and costs 149 euros.' });
    expect(refs[1]).toEqual({ answerable: false, answer: '' });
  });

  it('doubles a number for a false premise and asks about Japan for an unanswerable question', () => {
    const [premise, unanswerable] = answer(adversarialRequest({ texts: [hub], language: 'en', budgetTokens: 500 }, 2));
    expect(premise).toMatchObject({
      kind: 'false_premise',
      premise: 'The Lumora Hub speaks Zigbee 6.0, Thread and Matter.',
    });
    expect(unanswerable).toMatchObject({ kind: 'unanswerable', correction: '' });
    expect(unanswerable!.question).toMatch(/Japan\?$/);
  });

  it('knows closed-book only the questions that hold their own answer', () => {
    expect(answer(closedBookRequest('Is it true that the hub supports 120 devices?', 'en'))).toEqual({
      known: true,
      answer: 'Yes, the hub supports 120 devices.',
    });
    expect(answer(closedBookRequest('¿Es cierto que el hub admite 120 dispositivos?', 'es'))).toEqual({
      known: true,
      answer: 'Sí, el hub admite 120 dispositivos.',
    });
    expect(answer(closedBookRequest('How many devices does the hub support?', 'en'))).toEqual({
      known: false,
      answer: '',
    });
  });

  it('supports a statement only with most of its words and all its numbers and names', () => {
    const chunks = { texts: [hub, es], language: 'en' as const, budgetTokens: 500 };
    expect(
      answer(supportRequest('The Lumora Hub supports up to 120 paired devices.', 'false_premise', chunks)),
    ).toEqual([true, false]);
    expect(
      answer(supportRequest('The Lumora Hub supports up to 240 paired devices.', 'false_premise', chunks)),
    ).toEqual([false, false]);
    expect(answer(supportRequest('Is the Lumora Hub sold in Japan?', 'answers_question', chunks))).toEqual([
      false,
      false,
    ]);
  });
});
