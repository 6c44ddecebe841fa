import { describe, expect, it } from 'vitest';
import { cosine, lexicalEmbedding, toBase64 } from '@ragwatch/devkit/judge/lexical-embedding.js';
import { PrefixCache } from '@ragwatch/devkit/judge/prefix-cache.js';
import { countTokens, promptTokens } from '@ragwatch/devkit/judge/tokens.js';

describe('lexical embeddings', () => {
  const e = (t: string) => lexicalEmbedding(t, 256);
  it('are deterministic unit vectors', () => {
    const v = e('Redis stores data in memory');
    expect(v).toEqual(e('Redis stores data in memory'));
    expect(Math.hypot(...v)).toBeCloseTo(1, 12);
    expect(Math.hypot(...e(''))).toBeCloseTo(1, 12);
  });

  it('give texts sharing words a higher cosine', () => {
    const q = 'What is Redis used for?';
    const near = cosine(e(q), e('What is Redis mostly used for?'));
    const mid = cosine(e(q), e('Redis keeps data in memory'));
    const far = cosine(e(q), e('La capital de Francia es París'));
    expect(near).toBeGreaterThan(mid);
    expect(mid).toBeGreaterThanOrEqual(far);
    expect(far).toBeGreaterThan(0.3);
    expect(far).toBeLessThan(0.65);
  });

  it('encode base64 as little-endian float32', () => {
    const bytes = Buffer.from(toBase64([1, -0.5]), 'base64');
    expect(bytes.readFloatLE(0)).toBe(1);
    expect(bytes.readFloatLE(4)).toBe(-0.5);
  });
});

describe('prefix cache model', () => {
  it('counts the leading 16-token blocks seen before', () => {
    const cache = new PrefixCache(16);
    const shared = Array.from({ length: 40 }, (_, i) => i);
    expect(cache.lookup([...shared, 100, 101])).toBe(0);
    expect(cache.lookup([...shared, 200, 201])).toBe(32);
    expect(cache.lookup([999, ...shared])).toBe(0);
    cache.reset();
    expect(cache.lookup(shared)).toBe(0);
  });
});

describe('token counting', () => {
  it('uses cl100k and renders chat messages', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
    const n = promptTokens([{ role: 'user', content: 'hello world' }]).length;
    expect(n).toBeGreaterThan(2);
  });
});
