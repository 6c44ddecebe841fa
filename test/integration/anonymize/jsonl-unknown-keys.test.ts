import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnonymizer } from '../../../src/anonymize/index.js';
import { anonymizeLine } from '../../../src/commands/anonymize.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';
import { parseConfig } from '../../helpers/config.js';

const anonymizer = createAnonymizer(parseConfig({}).anonymize);

async function anonymizeJsonl(lines: unknown[]): Promise<Array<Record<string, unknown>>> {
  const { PassThrough } = await import('node:stream');
  const { main } = await import('../../../src/program.js');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  stdin.end(lines.map((l) => JSON.stringify(l)).join('\n'));
  const code = await main(['anonymize', '--format', 'jsonl'], { stdin, stdout, stderr, env: {}, cwd: process.cwd() });
  expect(code).toBe(0);
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('anonymize --format jsonl: keys it does not know', () => {
  it("anonymizes every string leaf of unknown keys with the line's one mapping; numbers, booleans and ids stay", async () => {
    const [text, sample] = await anonymizeJsonl([
      {
        id: 'ana@x.es-1',
        text: 'Escribe a ana@x.es',
        user: 'ana@x.es',
        metadata: {
          contact: { phone: 'Llámame al 612 345 678' },
          tags: ['vip', 'Ana López'],
          retries: 3,
          verified: true,
          note: null,
        },
      },
      {
        id: 7,
        question: 'Soy Ana López (ana@x.es)',
        answer: 'Hola Ana López',
        contexts: ['ana@x.es pidió 3 €'],
        session: { owner: 'ana@x.es', iban: 'ES91 2100 0418 4502 0005 1332' },
      },
    ]);
    expect(text).toMatchObject({
      id: 'ana@x.es-1',
      text: 'Escribe a <EMAIL_1>',
      user: '<EMAIL_1>',
      metadata: {
        contact: { phone: 'Llámame al <PHONE_1>' },
        tags: ['vip', '<PERSON_1>'],
        retries: 3,
        verified: true,
        note: null,
      },
    });
    expect((text!.entities as Array<{ field: string }>).map((e) => e.field)).toEqual([
      'text',
      'user',
      'metadata.contact.phone',
      'metadata.tags[1]',
    ]);
    expect(sample).toMatchObject({
      id: 7,
      question: 'Soy <PERSON_1> (<EMAIL_1>)',
      answer: 'Hola <PERSON_1>',
      contexts: ['<EMAIL_1> pidió 3 €'],
      session: { owner: '<EMAIL_1>', iban: '<IBAN_1>' },
    });
  });

  it('keeps the documented fields as they were handled before', async () => {
    const line = {
      id: 'b',
      question: 'Soy Ana López (ana@x.es)',
      answer: 'Hola Ana López',
      contexts: ['ana@x.es pidió 3 €'],
      reference: 'ana@x.es',
    };
    const [out] = await anonymizeJsonl([line]);
    const before = anonymizer.anonymizeSample({
      traceId: 'b',
      question: line.question,
      answer: line.answer,
      contexts: line.contexts,
      reference: line.reference,
      meta: {},
    });
    expect(out).toEqual({ ...line, ...before.sample, traceId: undefined, meta: undefined, entities: before.entities });
  });

  it('says so in --help', async () => {
    const help = await runCliInProcess(['anonymize', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(
      /every string (value )?(of|under) any other key is anonymized too/,
    );
  });

  it('property: a planted email or IBAN under any unknown key never comes back', () => {
    const planted = fc.constantFrom(
      'maria.soler@example.com',
      'ES91 2100 0418 4502 0005 1332',
      'jorge.vidal@correo.es',
    );
    const key = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter(
        (k) =>
          !['id', 'text', 'question', 'answer', 'contexts', 'reference', 'entities', 'residual', '__proto__'].includes(
            k,
          ),
      );
    const leaf = (secret: string) =>
      fc.oneof(fc.constant(secret), fc.constant(`contact: ${secret}.`), fc.constant(`${secret} (primary)`));
    const tree = (secret: string) =>
      fc.letrec<{ node: unknown }>((tie) => ({
        node: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          leaf(secret),
          fc.array(tie('node'), { maxLength: 3 }),
          fc.dictionary(key, tie('node'), { maxKeys: 3 }),
        ),
      })).node;
    fc.assert(
      fc.property(
        planted.chain((secret) =>
          fc.tuple(fc.constant(secret), fc.dictionary(key, tree(secret), { minKeys: 1, maxKeys: 4 }), fc.boolean()),
        ),
        ([secret, extra, textShape]) => {
          const base = textShape ? { id: 'x', text: 'hola' } : { id: 'x', question: 'q', answer: 'a', contexts: [] };
          const out = anonymizeLine(anonymizer, JSON.stringify({ ...extra, ...base }));
          expect(typeof out).not.toBe('string');
          const printed = JSON.stringify(out);
          expect(printed.includes(secret), printed).toBe(false);
          expect(printed.includes(secret.replace(/\s/g, ''))).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });
});
