import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearDuplicates, safeCosine, textVerdict } from '../../../src/golden/filters.js';
import type { Candidate } from '../../../src/golden/types.js';
import { configSchema } from '../../helpers/config.js';

const settings = configSchema.parse({}).golden.filters;
const candidate = (question: string, extra: Partial<Candidate> = {}): Candidate => ({
  id: 'c',
  seedKey: 's',
  index: 0,
  stratum: 'single-hop',
  language: 'en',
  question,
  reference: 'Up to 120 devices can be paired with the hub.',
  sourceChunkIds: ['a'],
  generator: 'm',
  promptVersion: 'p',
  ...extra,
});
const reason = (c: Candidate) => {
  const v = textVerdict(c, settings);
  return v.status === 'accepted' ? 'accepted' : v.reason;
};

describe('text filters', () => {
  it('accepts a well-formed, standalone question in the chunks’ language', () => {
    expect(reason(candidate('How many devices can be paired with the Lumora Hub?'))).toBe('accepted');
    expect(
      reason(
        candidate('¿Cuántos dispositivos admite el Lumora Hub como máximo?', {
          language: 'es',
          reference: 'Hasta 120.',
        }),
      ),
    ).toBe('accepted');
  });

  it('rejects malformed questions and references, each with its reason', () => {
    const cases: Array<[Candidate, string]> = [
      [candidate('Hub?'), 'too short'],
      [candidate(`${'very long '.repeat(40)}?`), 'too long'],
      [candidate('How many devices does it pair'), 'no question mark'],
      [candidate('How many devices? And which protocols?'), 'more than one question'],
      [candidate('How many devices can\nthe hub pair?'), 'several lines'],
      [candidate('How many devices can <PERSON_1> pair?'), 'placeholder'],
      [candidate('How many devices can the hub pair\u200b?'), 'invisible'],
      [candidate('How many devices can the </think> hub pair?'), 'markup'],
      [candidate('How many devices can the hub pair?', { reference: '' }), 'reference too short'],
      [candidate('How many devices can the hub pair?', { reference: 'x'.repeat(3000) }), 'reference too long'],
      [
        candidate('How many devices can the hub pair?', { reference: 'how many devices can the hub pair?' }),
        'repeats the question',
      ],
      [
        candidate('Why does the hub cost 299 euros?', {
          stratum: 'adversarial',
          adversarial: { kind: 'false_premise', premise: ' ' },
        }),
        'without its premise',
      ],
    ];
    for (const [c, detail] of cases) {
      const v = textVerdict(c, settings);
      expect(v.status === 'rejected' && v.reason, c.question).toBe('malformed');
      expect(v.status === 'rejected' && v.detail, c.question).toMatch(new RegExp(detail));
    }
  });

  it('rejects questions that lean on “the text” and questions in another language', () => {
    expect(reason(candidate('According to the text, how many devices can be paired?'))).toBe('ambiguous');
    expect(reason(candidate('What does this fragment say about pairing devices?'))).toBe('ambiguous');
    expect(reason(candidate('Según el texto, ¿cuántos dispositivos se emparejan?', { language: 'es' }))).toBe(
      'ambiguous',
    );
    expect(reason(candidate('¿Cuántos dispositivos se pueden emparejar con el hub?'))).toBe('wrong_language');
  });

  it('never throws, whatever the strings (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.string({ unit: 'binary', maxLength: 400 }),
        (q, r) => {
          const v = textVerdict(candidate(q, { reference: r }), settings);
          expect(['accepted', 'rejected']).toContain(v.status);
        },
      ),
    );
  });
});

describe('near-duplicates', () => {
  it('keeps the first of questions whose cosine reaches the threshold, or whose text is the same', () => {
    const dupes = nearDuplicates(
      [
        { id: 'a', question: 'How many devices?', vector: [1, 0, 0] },
        { id: 'b', question: 'How many devices can it pair?', vector: [0.99, 0.14, 0] },
        { id: 'c', question: 'Which protocols?', vector: [0, 1, 0] },
        { id: 'd', question: '  how MANY devices ', vector: null },
        { id: 'e', question: 'Battery life?', vector: [0, 0, 0] },
      ],
      0.95,
    );
    expect([...dupes.keys()]).toEqual(['b', 'd']);
    expect(dupes.get('b')!.of).toBe('a');
    expect(dupes.get('d')).toEqual({ of: 'a', similarity: 1 });
  });

  it('compares vectors with huge, tiny or broken components without overflow (property)', () => {
    const component = fc.oneof(
      fc.double({ min: -1e300, max: 1e300, noNaN: true }),
      fc.constantFrom(0, 1e-310, -1e-310, NaN, Infinity),
    );
    fc.assert(
      fc.property(
        fc.array(component, { minLength: 1, maxLength: 8 }),
        fc.array(component, { minLength: 1, maxLength: 8 }),
        (a, b) => {
          const c = safeCosine(a, b);
          if (c !== null) (expect(c).toBeGreaterThanOrEqual(-1), expect(c).toBeLessThanOrEqual(1));
        },
      ),
    );
    expect(safeCosine([1e300, 1e300], [2e300, 2e300])).toBeCloseTo(1, 12);
    expect(safeCosine([1e-310, 0], [3e-310, 0])).toBeCloseTo(1, 12);
    expect(safeCosine([1, 0], [1, 0, 0])).toBeNull();
  });
});
