import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_ITEMS } from '@ragwatch/devkit/corpus/index.js';
import { ExperimentInputError } from '../../../src/experiment/errors.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('v3', { items: GOLDEN_ITEMS.slice(0, 3) });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('the weekly experiment checks its score configs whole before any write', () => {
  it('a NUMERIC config of one of its names with another range stops the run before the first item (exit 2)', async () => {
    h.langfuse.store.createScoreConfig({
      name: 'ragas-context-precision',
      dataType: 'NUMERIC',
      minValue: 0,
      maxValue: 10,
      categories: null,
      description: null,
    });
    const err = await h.run({ runName: 'clash' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExperimentInputError);
    expect((err as ExperimentInputError).lines).toHaveLength(1);
    expect((err as ExperimentInputError).lines[0]).toMatch(
      /^metrics\.scorePrefix: score config "ragas-context-precision" in Langfuse has the range 0 to 10 where ragwatch writes 0 to 1/,
    );
    expect(h.rag.stats.asked).toBe(0);
    expect(h.langfuse.store.scores()).toHaveLength(0);
    expect(h.langfuse.store.droppedScores()).toHaveLength(0);

    // Under a prefix of its own the run completes and Langfuse keeps every score it wrote.
    const result = await h.run({ runName: 'renamed' }, h.config({ metrics: { scorePrefix: 'rw-' } }));
    expect(result.scoresWritten).toBeGreaterThan(0);
    expect(h.langfuse.store.scores().some((s) => s.name === 'rw-context-precision')).toBe(true);
    expect(h.langfuse.store.droppedScores()).toHaveLength(0);
  }, 120_000);
});
