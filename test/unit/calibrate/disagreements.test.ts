import { describe, expect, it } from 'vitest';
import { worstDisagreements } from '../../../src/calibrate/disagreements.js';
import type { AnnotatedPair } from '../../../src/calibrate/pairs.js';

const base: AnnotatedPair = {
  traceId: 't',
  metric: 'faithfulness',
  language: 'es',
  stratum: 'online',
  traceName: 'rag',
  origin: 'online',
  split: null,
  judge: 1,
  human: 1,
};
const pair = (traceId: string, judge: number, human: number, over: Partial<AnnotatedPair> = {}): AnnotatedPair => ({
  ...base,
  traceId,
  judge,
  human,
  ...over,
});

describe('worstDisagreements', () => {
  it('lists the largest gaps per metric with both reasons and levels, online and dev only', () => {
    const pairs = [
      pair('a', 1, 0, {
        judgeReason: 'all 3 claims are supported by the contexts',
        humanComment: 'el importe no aparece en <DOCUMENT_1>',
      }),
      pair('b', 0.8, 0.5),
      pair('c', 0.2, 1, { origin: 'experiment', split: 'dev', stratum: 'multi-hop' }),
      pair('d', 0.1, 1, { origin: 'experiment', split: 'test' }),
      pair('e', 0, 1, { origin: 'experiment', split: 'unknown' }),
      pair('f', 0.9, 1),
      pair('g', 0.5, 0, { metric: 'answer_relevancy' }),
    ];
    const lists = worstDisagreements(pairs);
    expect(lists.map((l) => [l.metric, l.worst.map((d) => d.traceId), l.heldBack])).toEqual([
      ['answer_relevancy', ['g'], 0],
      ['faithfulness', ['a', 'c', 'b'], 2],
    ]);
    expect(lists[1]!.worst[0]).toEqual({
      traceId: 'a',
      metric: 'faithfulness',
      language: 'es',
      stratum: 'online',
      traceName: 'rag',
      origin: 'online',
      split: null,
      judge: 1,
      human: 0,
      gap: 1,
      judgeLevel: 'supported',
      humanLevel: 'unsupported',
      judgeReason: 'all 3 claims are supported by the contexts',
      humanComment: 'el importe no aparece en <DOCUMENT_1>',
    });
    expect(lists[1]!.worst[1]).toMatchObject({
      judgeReason: null,
      humanComment: null,
      judgeLevel: 'unsupported',
      humanLevel: 'supported',
    });
  });

  it('breaks ties by trace id, stops at the limit and drops gaps below the minimum', () => {
    const pairs = [pair('z', 1, 0.5), pair('y', 1, 0.5), pair('x', 0, 0.5), pair('w', 0.9, 1)];
    expect(worstDisagreements(pairs, { limit: 2 })[0]!.worst.map((d) => d.traceId)).toEqual(['x', 'y']);
    expect(worstDisagreements(pairs, { minGap: 0 })[0]!.worst.map((d) => d.traceId)).toEqual(['x', 'y', 'z', 'w']);
    expect(worstDisagreements(pairs, { minGap: 0.6 })[0]!.worst).toEqual([]);
  });

  it('ignores pairs the figures leave out and rejects a bad limit', () => {
    expect(worstDisagreements([pair('a', Number.NaN, 0)])).toEqual([]);
    expect(() => worstDisagreements([], { limit: -1 })).toThrow(/limit/);
    expect(() => worstDisagreements([], { minGap: 2 })).toThrow(/minGap/);
  });
});
