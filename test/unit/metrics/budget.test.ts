import { describe, expect, it } from 'vitest';
import { CUT_MARKER, estimateTokens, fitChunks, fitText } from '../../../src/metrics/budget.js';
import { detectLanguage, promptLanguage } from '../../../src/metrics/language.js';
import { seededRandom } from '../../../src/random.js';

const long = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} talks about caching and latency.`).join(' ');

/** The estimate as its definition reads: letter runs (ASCII-only ones cheaper), number runs, one per other symbol. */
function referenceEstimate(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/(\p{L}+)|(\p{N}+)|[^\s\p{L}\p{N}]/gu)) {
    if (m[1] !== undefined) n += Math.max(1, Math.ceil(m[1].length / (/^[\x00-\x7f]*$/.test(m[1]) ? 7 : 4)));
    else if (m[2] !== undefined) n += Math.ceil(m[2].length / 3);
    else n += 1;
  }
  return n;
}

describe('token budgets', () => {
  it('estimates exactly as the piece definition on mixed-script text', () => {
    const random = seededRandom(7);
    const pieces = [
      'a',
      'Z',
      'qu',
      'ñ',
      'é',
      'ß',
      'д',
      '中',
      '😀',
      '👍🏽',
      '١',
      '3',
      '07',
      '½',
      '²',
      'Ⅻ',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\u3000',
      '.',
      '¿',
      '-',
      '€',
      '\u0301',
      '\ud800',
      '\udc00',
      'ǅ',
      '\u200b',
    ];
    for (let t = 0; t < 3000; t++) {
      const length = Math.floor(random() * 120);
      let text = '';
      for (let i = 0; i < length; i++)
        text +=
          random() < 0.5
            ? 'abcdefghijklmnop'[Math.floor(random() * 16)]!
            : pieces[Math.floor(random() * pieces.length)]!;
      expect(estimateTokens(text), JSON.stringify(text)).toBe(referenceEstimate(text));
    }
    expect(estimateTokens('canción 2024 ok')).toBe(2 + 2 + 1);
  });

  it('keeps short texts untouched', () => {
    const f = fitText('Redis keeps data in memory.', 100);
    expect(f).toMatchObject({ text: 'Redis keeps data in memory.', truncated: false });
  });

  it('cuts long texts deterministically at a word boundary, within budget, with a marker', () => {
    const a = fitText(long, 50);
    const b = fitText(long, 50);
    expect(a).toEqual(b);
    expect(a.truncated).toBe(true);
    expect(a.text.endsWith(CUT_MARKER)).toBe(true);
    expect(a.keptTokens).toBeLessThanOrEqual(50);
    expect(a.originalTokens).toBe(estimateTokens(long));
    expect(long.startsWith(a.text.slice(0, -CUT_MARKER.length))).toBe(true);
  });

  it('fits chunks into a shared budget: whole leading chunks, the first that does not fit cut, the rest left out', () => {
    const chunks = ['short chunk', long, long.slice(0, 2000)];
    const fitted = fitChunks(chunks, 300);
    expect(fitted.chunks).toHaveLength(2);
    expect(fitted.chunks[0]).toMatchObject({ text: 'short chunk', truncated: false });
    expect(fitted.chunks[1]).toMatchObject({ truncated: true });
    expect(fitted).toMatchObject({ truncated: true, droppedChunks: 1 });
    expect(fitted.chunks.reduce((s, c) => s + c.keptTokens, 0)).toBeLessThanOrEqual(300);
  });
});

describe('language', () => {
  it('detects Spanish and English', () => {
    expect(detectLanguage('¿Qué garantías de latencia ofrece Redis para las lecturas en memoria?')).toBe('es');
    expect(detectLanguage('What latency guarantees does Redis offer for in-memory reads?')).toBe('en');
    expect(detectLanguage('Redis', 'es')).toBe('es');
  });

  it('prefers configuration, then the sample, then detection', () => {
    const sample = { question: 'What is Redis?', answer: 'An in-memory store.' };
    expect(promptLanguage('es', sample)).toBe('es');
    expect(promptLanguage('auto', { ...sample, language: 'es' })).toBe('es');
    expect(promptLanguage('auto', sample)).toBe('en');
  });
});
