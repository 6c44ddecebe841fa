import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FUZZ_EDGES, fuzzVectors, JudgeFuzzer, SchemaFuzzer, VECTOR_EDGES } from '@ragwatch/devkit/judge/fuzz/index.js';
import { seededRandom } from '../../../src/random.js';

/** A schema with every feature the fuzzer knows: optional keys, bounds on every side, positions, refs, unions. */
const everything = {
  type: 'object',
  $defs: { verdict: { type: 'integer', enum: [0, 1] } },
  properties: {
    label: { type: 'string', minLength: 3, maxLength: 12 },
    note: { type: 'string' },
    score: { type: 'number', minimum: 0, maximum: 1 },
    offset: { type: 'integer' },
    weight: { type: 'number', exclusiveMinimum: 0 },
    kind: { const: 'x' },
    flag: { type: 'boolean' },
    maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: { text: { type: 'string' }, v: { $ref: '#/$defs/verdict' } },
        required: ['text', 'v'],
        additionalProperties: false,
      },
    },
    some: { type: 'array', minItems: 2, maxItems: 5, items: { type: 'integer', minimum: 1, maximum: 9 } },
    fixed: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      prefixItems: [
        { type: 'object', properties: { n: { const: 1 } }, required: ['n'], additionalProperties: false },
        { type: 'object', properties: { n: { const: 2 } }, required: ['n'], additionalProperties: false },
      ],
    },
  },
  required: ['label', 'note', 'score', 'offset', 'rows', 'some', 'fixed', 'kind'],
  additionalProperties: false,
};

describe('the schema fuzzer', () => {
  it('draws only values valid against the schema, and every edge class occurs', () => {
    const validate = new Ajv2020({ strict: false }).compile(everything);
    const fuzzer = new JudgeFuzzer(3);
    for (let i = 0; i < 2000; i++) {
      const value = fuzzer.answer(everything);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    }
    const stats = fuzzer.stats();
    expect(stats.chatAnswers).toBe(2000);
    for (const edge of FUZZ_EDGES) expect(stats.edges[edge] ?? 0, edge).toBeGreaterThan(0);
  });

  it('is reproducible from its seed', () => {
    const a = new SchemaFuzzer(seededRandom(9));
    const b = new SchemaFuzzer(seededRandom(9));
    for (let i = 0; i < 50; i++) expect(a.draw(everything)).toEqual(b.draw(everything));
  });

  it('reaches the far end of unbounded numbers and the bounds of bounded ones', () => {
    const fuzzer = new SchemaFuzzer(seededRandom(1));
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) seen.add(fuzzer.draw({ type: 'integer' }).value as number);
    expect(seen).toContain(Number.MAX_SAFE_INTEGER);
    expect(seen).toContain(-Number.MAX_SAFE_INTEGER);
    const bounded = new Set<number>();
    for (let i = 0; i < 300; i++) bounded.add(fuzzer.draw({ type: 'integer', minimum: 1, maximum: 5 }).value as number);
    expect([...bounded].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('repeats rows and draws empty, blank, odd-Unicode and markup strings', () => {
    const fuzzer = new SchemaFuzzer(seededRandom(2));
    const strings = new Set<string>();
    let repeated = false;
    for (let i = 0; i < 400; i++) {
      const list = fuzzer.draw({ type: 'array', items: { type: 'string' } }).value as string[];
      for (const s of list) strings.add(s);
      if (new Set(list).size < list.length) repeated = true;
    }
    expect(repeated).toBe(true);
    const all = [...strings];
    expect(all).toContain('');
    expect(all.some((s) => s !== '' && s.trim() === '')).toBe(true);
    expect(all.some((s) => s.includes('</think>'))).toBe(true);
    expect(all.some((s) => /[\ud800-\udbff](?![\udc00-\udfff])/.test(s))).toBe(true);
  });

  it('gives up with an error, instead of sending an invalid value, on a schema it cannot satisfy', () => {
    const fuzzer = new JudgeFuzzer(1);
    expect(() => fuzzer.answer({ type: 'string', pattern: '^[0-9]{40}$' })).toThrow(
      /no value valid against the schema/,
    );
    expect(fuzzer.stats().redrawn).toBe(20);
  });
});

describe('fuzzed embedding vectors', () => {
  it('one vector per input, all of the dimension asked, finite, and every vector edge case occurs', () => {
    const random = seededRandom(4);
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const draw = fuzzVectors(4, 16, random);
      expect(draw.vectors).toHaveLength(4);
      for (const v of draw.vectors) {
        expect(v).toHaveLength(16);
        expect(v.every(Number.isFinite)).toBe(true);
      }
      draw.edges.forEach((e) => seen.add(e));
    }
    expect([...seen].sort()).toEqual([...VECTOR_EDGES].sort());
  });

  it('keeps extremes inside float32 when the vectors go out as base64', () => {
    const random = seededRandom(5);
    for (let i = 0; i < 100; i++) {
      for (const v of fuzzVectors(3, 4, random, true).vectors)
        expect(v.every((x) => Number.isFinite(Math.fround(x)))).toBe(true);
    }
  });
});
