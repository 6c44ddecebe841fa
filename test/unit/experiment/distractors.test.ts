import { describe, expect, it } from 'vitest';
import { pickDistractors } from '../../../src/experiment/distractors.js';

const pool = [
  { itemId: 'b', contexts: ['B one', 'B two', 'shared chunk'] },
  { itemId: 'a', contexts: ['A one', 'A two'] },
  { itemId: 'c', contexts: ['C one', 'C two', 'C three'] },
];

describe('seeded distractors', () => {
  it('draws from other items only, never the item’s own chunks, without repeats', () => {
    const picked = pickDistractors('a', ['A one', 'Shared   CHUNK'], pool, 4, 42);
    expect(picked).toHaveLength(4);
    expect(new Set(picked).size).toBe(4);
    for (const p of picked) {
      expect(['A one', 'A two', 'shared chunk']).not.toContain(p);
    }
  });

  it('is reproducible and independent of the pool order; another seed draws differently', () => {
    const one = pickDistractors('a', [], pool, 2, 7);
    expect(pickDistractors('a', [], [...pool].reverse(), 2, 7)).toEqual(one);
    const draws = new Set(Array.from({ length: 8 }, (_, s) => pickDistractors('a', [], pool, 2, s).join('|')));
    expect(draws.size).toBeGreaterThan(1);
  });

  it('gives what there is when the pool is small', () => {
    expect(pickDistractors('a', [], [{ itemId: 'b', contexts: ['x'] }], 3, 1)).toEqual(['x']);
    expect(pickDistractors('a', [], [], 3, 1)).toEqual([]);
  });
});
