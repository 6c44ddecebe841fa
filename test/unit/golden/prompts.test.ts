import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SchemaFuzzer } from '@ragwatch/devkit/judge/fuzz/index.js';
import { textVerdict } from '../../../src/golden/filters.js';
import {
  adversarialRequest,
  closedBookRequest,
  goldenPromptVersion,
  questionsRequest,
  referencesRequest,
  supportRequest,
} from '../../../src/golden/prompts/build.js';
import { seededRandom } from '../../../src/random.js';
import { configSchema } from '../../helpers/config.js';

const chunks = {
  texts: ['The Lumora Hub supports up to 120 devices.', 'It costs 149 euros.'],
  language: 'en' as const,
  budgetTokens: 500,
};

describe('golden prompts: the schema is the contract', () => {
  const requests = [
    questionsRequest(chunks, 'single-hop', 3),
    questionsRequest(chunks, 'multi-hop', 2),
    adversarialRequest(chunks, 2),
    referencesRequest(chunks, ['How many devices?', 'How much?', 'Where?']),
    closedBookRequest('How many devices?', 'en'),
    supportRequest('The hub costs 199 euros.', 'false_premise', chunks),
  ];

  it('every answer a schema admits parses (1000 fuzzed draws per task, ajv-checked)', () => {
    const ajv = new Ajv({ strict: false });
    for (const request of requests) {
      const validate = ajv.compile(request.schema);
      const fuzzer = new SchemaFuzzer(seededRandom(request.name.length));
      for (let i = 0; i < 1000; i++) {
        const { value } = fuzzer.draw(request.schema as Record<string, unknown>);
        if (!validate(value)) continue;
        expect(() => request.parse(value), `${request.name}: ${JSON.stringify(value).slice(0, 200)}`).not.toThrow();
      }
    }
  });

  it('fixes counts and positions: N questions exactly, one reference and one verdict per number, in order', () => {
    const [single, , adversarial, references, , support] = requests;
    expect(() => single!.parse({ questions: [{ question: 'a' }] })).toThrow(/1 questions instead of 3/);
    expect(single!.parse({ questions: [1, 2, 3, 4].map((n) => ({ question: `q${n}` })) })).toEqual(['q1', 'q2', 'q3']);
    expect(() =>
      adversarial!.parse({ questions: [{ kind: 'other', question: 'q', premise: '', correction: '' }] }),
    ).toThrow();
    expect(
      references!.parse({
        answers: [3, 1, 2, 1].map((n) => ({ question: n, answerable: n === 2 ? 0 : 1, answer: `a${n}` })),
      }),
    ).toEqual([
      { answerable: true, answer: 'a1' },
      { answerable: false, answer: 'a2' },
      { answerable: true, answer: 'a3' },
    ]);
    expect(() => references!.parse({ answers: [{ question: 1, answerable: 1, answer: 'a' }] })).toThrow(
      /no row for question 2, 3/,
    );
    expect(() => support!.parse({ chunks: [{ chunk: 3, supports: 1 }] })).toThrow(/chunk 3 does not exist/);
    expect(support!.schema).toMatchObject({
      properties: {
        chunks: {
          minItems: 2,
          maxItems: 2,
          prefixItems: [{ properties: { chunk: { const: 1 } } }, { properties: { chunk: { const: 2 } } }],
        },
      },
    });
  });

  it('fuzzed questions become candidates the text filters accept or reject, never an error', () => {
    const settings = configSchema.parse({}).golden.filters;
    const fuzzer = new SchemaFuzzer(seededRandom(5));
    const request = adversarialRequest(chunks, 2);
    for (let i = 0; i < 500; i++) {
      for (const q of request.parse(fuzzer.draw(request.schema as Record<string, unknown>).value)) {
        const candidate = {
          id: 'c',
          seedKey: 's',
          index: 0,
          stratum: 'adversarial' as const,
          language: 'en' as const,
          question: q.question.trim(),
          reference: q.correction.trim(),
          sourceChunkIds: ['a'],
          adversarial: { kind: q.kind, premise: q.premise.trim() },
          generator: 'g',
          promptVersion: 'p',
        };
        expect(['accepted', 'rejected']).toContain(textVerdict(candidate, settings).status);
      }
    }
  });

  it('versions each task’s prompt per language by content', () => {
    expect(goldenPromptVersion('questions', 'en')).toMatch(/^en-[0-9a-f]{12}$/);
    expect(goldenPromptVersion('questions', 'es')).not.toBe(goldenPromptVersion('questions', 'en'));
    expect(goldenPromptVersion('questions', 'en')).not.toBe(goldenPromptVersion('references', 'en'));
    expect(requests[0]!.messages[0]!.content).toBe(requests[3]!.messages[0]!.content);
    expect(requests[3]!.messages[1]!.content.startsWith(requests[0]!.messages[1]!.content.split('\nTASK:')[0]!)).toBe(
      true,
    );
  });
});
