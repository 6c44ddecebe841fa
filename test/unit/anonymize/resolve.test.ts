import { describe, expect, it } from 'vitest';
import { resolveOverlaps } from '../../../src/anonymize/resolve.js';
import type { Candidate } from '../../../src/anonymize/types.js';

const c = (type: Candidate['type'], start: number, end: number, score: number): Candidate => ({
  type,
  start,
  end,
  score,
  normalized: `${start}`,
});

describe('resolveOverlaps', () => {
  it('keeps the longest span, then the highest score, and returns them in text order', () => {
    const kept = resolveOverlaps([
      c('EMAIL', 20, 30, 0.95),
      c('URL', 10, 40, 0.9),
      c('PHONE', 50, 60, 0.7),
      c('CREDIT_CARD', 50, 60, 0.9),
      c('PERSON', 0, 5, 0.6),
    ]);
    expect(kept.map((k) => k.type)).toEqual(['PERSON', 'URL', 'CREDIT_CARD']);
  });
  it('keeps adjacent spans', () => {
    expect(resolveOverlaps([c('PERSON', 0, 5, 0.9), c('EMAIL', 5, 10, 0.9)])).toHaveLength(2);
  });
});
