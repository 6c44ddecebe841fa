import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, estimateTokens, fitChunks, fitText } from '../../../src/metrics/budget.js';
import { prepareSample } from '../../../src/metrics/prepare.js';
import { configSchema } from '../../helpers/config.js';

const options = configSchema.parse({}).metrics;

/** 10,000 short retrieved chunks (~10 tokens each): the 70k-token prompt. */
const manyChunks = Array.from({ length: 10_000 }, (_, i) => `Chunk ${i}: Redis keeps its dataset in memory.`);

const stripped = (text: string) => (text.endsWith(CUT_MARKER) ? text.slice(0, -CUT_MARKER.length) : text);

describe('context budget: whole leading chunks', () => {
  it('keeps whole leading chunks up to maxContextTokens and leaves the rest out, flagged', () => {
    const fitted = fitChunks(manyChunks, 6000);
    const kept = fitted.chunks.map((c) => c.text);
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThan(1000);
    expect(kept).toEqual(manyChunks.slice(0, kept.length));
    expect(fitted.chunks.reduce((s, c) => s + c.keptTokens, 0)).toBeLessThanOrEqual(6000);
    expect(fitted.truncated).toBe(true);
    expect(fitted.droppedChunks).toBe(10_000 - kept.length);
  });

  it('prepares a 10,000-chunk sample within the budget: no chunk cut to nothing', () => {
    const prepared = prepareSample(
      {
        traceId: 't',
        question: 'Where does Redis keep its data?',
        answer: 'In memory.',
        contexts: manyChunks,
        meta: {},
      },
      options,
    );
    expect(prepared.contexts.length).toBeLessThan(1000);
    for (const chunk of prepared.contexts) expect(stripped(chunk).trim()).not.toBe('');
    expect(prepared.contexts.reduce((s, c) => s + estimateTokens(c), 0)).toBeLessThanOrEqual(options.maxContextTokens);
    expect(prepared.truncated.contexts).toMatchObject({
      chunks: 10_000,
      keptChunks: prepared.contexts.length,
      droppedChunks: 10_000 - prepared.contexts.length,
    });
  });

  it('cuts the first chunk that does not fit when a useful part of the budget is left, and drops the rest', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Sentence ${i} about caching.`).join(' ');
    const fitted = fitChunks(['A short first chunk.', long, 'A third chunk.'], 300);
    expect(fitted.chunks.map((c) => c.truncated)).toEqual([false, true]);
    expect(fitted.chunks[1]!.text.endsWith(CUT_MARKER)).toBe(true);
    expect(long.startsWith(stripped(fitted.chunks[1]!.text))).toBe(true);
    expect(fitted.droppedChunks).toBe(1);
  });

  it('keeps everything when it fits', () => {
    const chunks = ['one', 'two', '', 'four'];
    const fitted = fitChunks(chunks, 100);
    expect(fitted.chunks.map((c) => c.text)).toEqual(chunks);
    expect(fitted).toMatchObject({ truncated: false, droppedChunks: 0 });
  });

  it('never empties a text: a first word longer than the budget is cut inside it', () => {
    const blob = 'A'.repeat(100_000);
    const f = fitText(blob, 50);
    expect(f.truncated).toBe(true);
    expect(stripped(f.text).length).toBeGreaterThan(0);
    expect(f.keptTokens).toBeLessThanOrEqual(50);
    const chunks = fitChunks([`${blob} tail`, 'second'], 200);
    expect(stripped(chunks.chunks[0]!.text).length).toBeGreaterThan(0);
  });

  it('property: a prefix of whole chunks, at most one cut, within budget, nothing emptied', () => {
    const word = fc.oneof(
      fc.constantFrom('redis', 'caché', 'memoria', 'latency', '42', '¿', 'ñandú', '😀'),
      fc.string({ minLength: 1, maxLength: 30 }),
    );
    const chunk = fc.array(word, { minLength: 0, maxLength: 60 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.array(chunk, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 16, max: 2000 }),
        (chunks, budget) => {
          const fitted = fitChunks(chunks, budget);
          const kept = fitted.chunks;
          expect(kept.length + fitted.droppedChunks).toBe(chunks.length);
          expect(kept.reduce((s, c) => s + c.keptTokens, 0)).toBeLessThanOrEqual(budget);
          kept.forEach((c, i) => {
            const original = chunks[i]!;
            if (i < kept.length - 1) expect(c.text).toBe(original);
            else if (c.truncated)
              expect(original.startsWith(stripped(c.text).trimEnd()) || original.normalize() !== original).toBe(true);
            if (original.trim() !== '') expect(stripped(c.text).trim(), JSON.stringify(original)).not.toBe('');
          });
          const total = chunks.reduce((s, c) => s + estimateTokens(c), 0);
          if (total <= budget) expect(kept.map((c) => c.text)).toEqual(chunks);
          // something of the first non-empty chunk is always kept
          expect(kept.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
