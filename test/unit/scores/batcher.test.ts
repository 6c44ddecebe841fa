import { describe, expect, it } from 'vitest';
import { scoreIdFor } from '../../../src/langfuse/index.js';
import type { ScoreToWrite, WriteScoresResult } from '../../../src/langfuse/index.js';
import { ScoreBatcher } from '../../../src/scores/index.js';

const score = (traceId: string, name: string): ScoreToWrite => ({
  traceId,
  name,
  value: 0.5,
  timestamp: '2025-01-01T00:00:00.000Z',
});

describe('ScoreBatcher', () => {
  it('writes the scores of several traces in one call and hands each its own result', async () => {
    const calls: ScoreToWrite[][] = [];
    const batcher = new ScoreBatcher(
      {
        writeScores: async (scores): Promise<WriteScoresResult> => {
          calls.push(scores);
          const bad = scoreIdFor('b', 'x');
          return {
            written: scores.map((s) => scoreIdFor(s.traceId, s.name)).filter((id) => id !== bad),
            failed: [{ id: bad, traceId: 'b', name: 'x', status: 500, message: 'no', retryable: true }],
          };
        },
      },
      4,
      1000,
    );
    const [a, b] = await Promise.all([
      batcher.write([score('a', 'x'), score('a', 'y')]),
      batcher.write([score('b', 'x'), score('b', 'y')]),
    ]);
    expect(calls).toHaveLength(1);
    expect(a).toEqual({ written: [scoreIdFor('a', 'x'), scoreIdFor('a', 'y')], failed: [] });
    expect(b.written).toEqual([scoreIdFor('b', 'y')]);
    expect(b.failed.map((f) => f.id)).toEqual([scoreIdFor('b', 'x')]);
  });

  it('flushes a partial batch after the delay and passes errors to every waiting trace', async () => {
    let n = 0;
    const batcher = new ScoreBatcher(
      {
        writeScores: async () => {
          n += 1;
          throw new Error('down');
        },
      },
      100,
      1,
    );
    const results = await Promise.allSettled([batcher.write([score('a', 'x')]), batcher.write([score('b', 'x')])]);
    expect(n).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
