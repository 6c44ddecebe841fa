import { describe, expect, it } from 'vitest';
import { CUT_MARKER, estimateTokens, fitChunks, fitText } from '../../../src/metrics/budget.js';
import { detectLanguage, promptLanguage } from '../../../src/metrics/language.js';

const long = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} talks about caching and latency.`).join(' ');

describe('token budgets', () => {
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

  it('fits chunks into a shared budget without dropping any, sparing the short ones', () => {
    const chunks = ['short chunk', long, long.slice(0, 2000)];
    const fitted = fitChunks(chunks, 300);
    expect(fitted.chunks).toHaveLength(3);
    expect(fitted.chunks[0]).toMatchObject({ text: 'short chunk', truncated: false });
    expect(fitted.truncated).toBe(true);
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
