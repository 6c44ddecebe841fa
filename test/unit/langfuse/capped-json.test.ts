import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CappedJsonParser, JsonSyntaxError, utf8PrefixLength } from '../../../src/langfuse/core/capped-json.js';
import { CUT_MARKER } from '../../../src/sample.js';

const UNCAPPED = { maxFieldBytes: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

/** Parses `text` fed in the given chunk sizes (cycled). */
function parse(
  text: string,
  options = UNCAPPED,
  sizes: number[] = [text.length || 1],
): { value: unknown; parser: CappedJsonParser } {
  const parser = new CappedJsonParser(options);
  let at = 0;
  let k = 0;
  while (at < text.length) {
    const size = Math.max(1, sizes[k++ % sizes.length]!);
    parser.write(text.slice(at, at + size));
    at += size;
  }
  return { value: parser.end(), parser };
}

function nativeOutcome(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 6 });

describe('CappedJsonParser without caps is JSON.parse', () => {
  it('property: same value for any JSON text, however it is split into chunks', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), chunkSizes, (text, sizes) => {
        const { value } = parse(text, UNCAPPED, sizes);
        expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
        expect(value).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('property: same value for pretty-printed text with unicode and escapes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: 'small' }), fc.constantFrom(0, 2, '\t'), chunkSizes, (v, indent, sizes) => {
        const text = JSON.stringify(v, null, indent).replace(/[\u007f-\uffff]/g, (c) =>
          c.charCodeAt(0) % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
        );
        expect(parse(text, UNCAPPED, sizes).value).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('property: rejects exactly what JSON.parse rejects', () => {
    const mutated = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.constantFrom('', ',', '"', '\\', '}', ']', '{', '[', ':', 'x', '\u0001', '1', '.', '-', 'e'),
      )
      .map(([text, at, insert]) => {
        const i = at % (text.length + 1);
        return insert === '' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 20 })), chunkSizes, (text, sizes) => {
        const native = nativeOutcome(text);
        let mine: { ok: true; value: unknown } | { ok: false };
        try {
          mine = { ok: true, value: parse(text, UNCAPPED, sizes).value };
        } catch (err) {
          expect(err).toBeInstanceOf(JsonSyntaxError);
          mine = { ok: false };
        }
        expect(mine.ok, JSON.stringify(text)).toBe(native.ok);
        if (mine.ok && native.ok) expect(mine.value).toEqual(native.value);
      }),
      { numRuns: 1500 },
    );
  });

  it('keeps a "__proto__" key as an own property and pollutes nothing', () => {
    const { value } = parse('{"__proto__": {"polluted": true}, "a": [{"__proto__": 1}]}', UNCAPPED, [3]);
    expect(Object.keys(value as object)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe(
      JSON.stringify(JSON.parse('{"__proto__": {"polluted": true}, "a": [{"__proto__": 1}]}')),
    );
  });
});

describe('CappedJsonParser caps', () => {
  it('cuts a string to the field cap, with the marker, and counts it', () => {
    const long = 'ñ'.repeat(10_000);
    const { value, parser } = parse(
      JSON.stringify({ id: 't1', output: long, tail: 'kept' }),
      { maxFieldBytes: 1000, maxBytes: 100_000 },
      [333],
    );
    const v = value as { id: string; output: string; tail: string };
    expect(v.id).toBe('t1');
    expect(v.tail).toBe('kept');
    expect(v.output.endsWith(CUT_MARKER)).toBe(true);
    expect(Buffer.byteLength(v.output.slice(0, -CUT_MARKER.length))).toBeLessThanOrEqual(1000);
    expect(long.startsWith(v.output.slice(0, -CUT_MARKER.length))).toBe(true);
    expect(parser.fieldsCut).toBe(1);
  });

  it('repairs a cut string that held JSON: the inner text cut, the rest closed, still JSON', () => {
    const inner = JSON.stringify({
      role: 'assistant',
      content: `La respuesta: ${'palabra '.repeat(20_000)}`,
      finish: 'stop',
    });
    const { value } = parse(JSON.stringify({ output: inner }), { maxFieldBytes: 2000, maxBytes: 1_000_000 }, [97]);
    const output = (value as { output: string }).output;
    const repaired = JSON.parse(output) as { role: string; content: string; finish?: string };
    expect(repaired.role).toBe('assistant');
    expect(repaired.content.startsWith('La respuesta: palabra palabra')).toBe(true);
    expect(repaired.content.endsWith(CUT_MARKER)).toBe(true);
    expect(repaired.finish).toBeUndefined();
  });

  it('drops values once the total is spent, never keeping stubs', () => {
    const chunks = Array.from({ length: 1000 }, (_, i) => ({ pageContent: `chunk ${i} `.repeat(20) }));
    const { value, parser } = parse(
      JSON.stringify({ id: 'x', output: chunks, after: 'late' }),
      { maxFieldBytes: 10_000, maxBytes: 20_000 },
      [4096],
    );
    const v = value as { id: string; output: Array<{ pageContent: string }>; after?: string };
    expect(v.id).toBe('x');
    expect(v.output.length).toBeGreaterThan(50);
    expect(v.output.length).toBeLessThan(1000);
    expect(v.output).toEqual(
      chunks.slice(0, v.output.length).map((c, i) => (i < v.output.length - 1 ? c : v.output[i])),
    );
    for (const c of v.output) expect(c.pageContent.length).toBeGreaterThan(60);
    expect(v.after).toBeUndefined();
    expect(parser.valuesDropped).toBeGreaterThan(0);
    expect(parser.keptBytes).toBeLessThanOrEqual(20_000);
  });

  it('property: kept strings are within their cap, the total within the budget, and the value a cut of the original', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ depthSize: 'small' }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 4000 }),
        chunkSizes,
        (v, maxFieldBytes, maxBytes, sizes) => {
          const { value, parser } = parse(JSON.stringify(v), { maxFieldBytes, maxBytes }, sizes);
          // the root container and the last value started within the budget may go over it, by one field at most
          expect(parser.keptBytes).toBeLessThanOrEqual(maxBytes + maxFieldBytes + 32);
          const isSubset = (got: unknown, original: unknown): void => {
            if (typeof got === 'string') {
              expect(typeof original).toBe('string');
              if (got !== original) {
                expect(
                  got.endsWith(CUT_MARKER) ||
                    (original as string).trimStart().startsWith('{') ||
                    (original as string).trimStart().startsWith('['),
                ).toBe(true);
                if (got.endsWith(CUT_MARKER)) {
                  const kept = got.slice(0, -CUT_MARKER.length);
                  expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(maxFieldBytes);
                  expect((original as string).startsWith(kept)).toBe(true);
                }
              }
            } else if (Array.isArray(got)) {
              expect(Array.isArray(original)).toBe(true);
              expect(got.length).toBeLessThanOrEqual((original as unknown[]).length);
              got.forEach((g, i) => isSubset(g, (original as unknown[])[i]));
            } else if (got && typeof got === 'object') {
              for (const [k, g] of Object.entries(got)) {
                // keys are never cut: a member whose key is over the cap is left out
                const match = Object.entries(original as object).find(([ok]) => ok === k);
                expect(match, k).toBeDefined();
                isSubset(g, match![1]);
              }
            } else expect(got).toEqual(original);
          };
          isSubset(value, JSON.parse(JSON.stringify(v)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('does not build what is dropped: a huge array past the budget costs no memory to keep', () => {
    const parser = new CappedJsonParser({ maxFieldBytes: 100, maxBytes: 1000 });
    parser.write('{"data":[');
    for (let i = 0; i < 200_000; i++) parser.write(`${i ? ',' : ''}{"id":"${i}","v":[1,2,3]}`);
    parser.write(']}');
    const value = parser.end() as { data: unknown[] };
    expect(value.data.length).toBeLessThan(100);
    expect(parser.valuesDropped).toBeGreaterThan(199_000);
  });
});

describe('utf8PrefixLength', () => {
  it('never splits a surrogate pair and counts UTF-8 bytes', () => {
    expect(utf8PrefixLength('a😀b', 4)).toBe(1);
    expect(utf8PrefixLength('a😀b', 5)).toBe(3);
    expect(utf8PrefixLength('ññ', 3)).toBe(1);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.nat(120), (text, max) => {
        const k = utf8PrefixLength(text, max);
        expect(Buffer.byteLength(text.slice(0, k))).toBeLessThanOrEqual(max);
        if (k < text.length)
          expect(Buffer.byteLength(text.slice(0, k + (/[\ud800-\udbff]/.test(text[k]!) ? 2 : 1)))).toBeGreaterThan(max);
      }),
    );
  });
});
