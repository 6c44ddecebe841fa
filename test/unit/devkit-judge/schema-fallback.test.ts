import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fallbackAnswer } from '@ragwatch/devkit/judge/schema-fallback.js';
import { schemaErrors } from '@ragwatch/devkit/judge/schema-check.js';
import type { JudgeRequest } from '@ragwatch/devkit/judge/types.js';

const prompt =
  'question: What is Redis?\ncontext: Redis is an in-memory data store. Redis persists snapshots to disk.\n' +
  'answer: Redis is an in-memory data store. Redis was written in Java. I am not sure about the licence.';
const req = (schema: Record<string, unknown>, lastUser = prompt): JudgeRequest => ({
  body: {},
  model: 'm',
  messages: [],
  system: '',
  lastUser,
  mode: 'json_schema',
  schema,
});

describe('schema-driven fallback', () => {
  it('judges each answer sentence by word coverage of the contexts', () => {
    const schema = {
      type: 'object',
      properties: {
        statements: {
          type: 'array',
          items: {
            type: 'object',
            properties: { statement: { type: 'string' }, verdict: { type: 'integer' }, reason: { type: 'string' } },
            required: ['statement', 'verdict', 'reason'],
          },
        },
      },
      required: ['statements'],
    };
    const value = fallbackAnswer(req(schema)) as { statements: Array<{ statement: string; verdict: number }> };
    expect(value.statements.map((s) => [s.statement, s.verdict])).toEqual([
      ['Redis is an in-memory data store.', 1],
      ['Redis was written in Java.', 0],
      ['I am not sure about the licence.', 0],
    ]);
  });

  it('fills questions, noncommittal flags, enums, bounded scores and formats', () => {
    const schema = {
      type: 'object',
      properties: {
        questions: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
        noncommittal: { type: 'boolean' },
        supported: { enum: ['yes', 'no'] },
        score: { type: 'number', minimum: 1, maximum: 5 },
        when: { type: 'string', format: 'date-time' },
        note: { type: ['string', 'null'], maxLength: 5 },
      },
      required: ['questions', 'noncommittal', 'supported', 'score', 'when', 'note'],
      additionalProperties: false,
    };
    const value = fallbackAnswer(req(schema)) as Record<string, unknown>;
    expect(schemaErrors(schema, value)).toBeUndefined();
    expect(value.questions).toEqual([
      'What can you tell me about Redis memory data store?',
      'What can you tell me about Redis written Java?',
    ]);
    expect(value.noncommittal).toBe(true);
    expect(value.supported).toBe('no');
  });

  it('follows $ref, $defs, definitions, anyOf and allOf', () => {
    const schema = {
      $defs: {
        Claim: {
          type: 'object',
          properties: { claim: { type: 'string' }, supported: { type: 'boolean' } },
          required: ['claim', 'supported'],
        },
      },
      definitions: {
        Wrapper: {
          allOf: [
            { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
            { type: 'object', properties: { b: { const: 'x' } }, required: ['b'] },
          ],
        },
      },
      type: 'object',
      properties: {
        claims: { type: 'array', items: { $ref: '#/$defs/Claim' } },
        wrapper: { $ref: '#/definitions/Wrapper' },
        maybe: { anyOf: [{ type: 'null' }, { type: 'integer', exclusiveMinimum: 3 }] },
      },
      required: ['claims', 'wrapper', 'maybe'],
    };
    const value = fallbackAnswer(req(schema)) as { claims: Array<{ supported: boolean }>; maybe: number };
    expect(schemaErrors(schema, value)).toBeUndefined();
    expect(value.claims.map((c) => c.supported)).toEqual([true, false, false]);
    expect(value.maybe).toBe(4);
  });

  const leaf = fc.oneof(
    fc.constant({ type: 'string' }),
    fc.record({
      type: fc.constant('string'),
      minLength: fc.integer({ min: 0, max: 5 }),
      maxLength: fc.integer({ min: 5, max: 40 }),
    }),
    fc.record({
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.integer({ min: -5, max: 0 }),
      maximum: fc.integer({ min: 1, max: 10 }),
    }),
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'null' }),
    fc.record({ enum: fc.uniqueArray(fc.constantFrom('yes', 'no', 'maybe', 1, 0), { minLength: 1 }) }),
  );
  const names = fc.constantFrom(
    'verdict',
    'reason',
    'question',
    'score',
    'statement',
    'supported',
    'noncommittal',
    'claims',
    'x',
    'useful',
    'entities',
  );
  const schemaArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constant('array'),
        items: tie('node'),
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 2, max: 6 }),
      }),
      fc.dictionary(names, tie('node'), { minKeys: 1, maxKeys: 4 }).map((properties) => ({
        type: 'object',
        properties,
        required: Object.keys(properties),
        additionalProperties: false,
      })),
    ),
  })).node;

  it('always produces JSON valid against the schema (property)', () => {
    fc.assert(
      fc.property(
        schemaArb,
        fc.constantFrom(prompt, 'pregunta: ¿Qué?\nrespuesta: No lo sé.', 'free text with no labels', ''),
        (schema, text) => {
          const value = fallbackAnswer(req(schema, text));
          expect(schemaErrors(schema, value)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});
