import { describe, expect, it } from 'vitest';
import { Pseudonymizer, replaceAll } from '../../../src/anonymize/pseudonymizer.js';

describe('Pseudonymizer', () => {
  it('numbers placeholders per type and reuses them for equal keys', () => {
    const p = new Pseudonymizer();
    expect(p.placeholderFor('EMAIL', 'a@x.es')).toBe('<EMAIL_1>');
    expect(p.placeholderFor('PHONE', '+34612345678')).toBe('<PHONE_1>');
    expect(p.placeholderFor('EMAIL', 'b@x.es')).toBe('<EMAIL_2>');
    expect(p.placeholderFor('EMAIL', 'a@x.es')).toBe('<EMAIL_1>');
    expect(new Pseudonymizer().placeholderFor('EMAIL', 'b@x.es')).toBe('<EMAIL_1>');
  });
  it('reports output positions of each replacement', () => {
    const text = 'mail a@x.es o b@x.es';
    const { text: out, replacements } = replaceAll(
      text,
      [
        { type: 'EMAIL', start: 5, end: 11, score: 0.95, normalized: 'a@x.es' },
        { type: 'EMAIL', start: 14, end: 20, score: 0.95, normalized: 'b@x.es' },
      ],
      new Pseudonymizer(),
    );
    expect(out).toBe('mail <EMAIL_1> o <EMAIL_2>');
    for (const r of replacements) expect(out.slice(r.outStart, r.outEnd)).toBe(r.placeholder);
  });
});
