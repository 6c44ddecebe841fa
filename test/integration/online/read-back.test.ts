import { afterEach, describe, expect, it } from 'vitest';
import { scoreIdFor } from '../../../src/langfuse/index.js';
import { runOnlineTick } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { testRuntime } from '../../../src/runtime/index.js';
import { createServiceMetrics } from '../../../src/service/metrics.js';
import { openSqliteState } from '../../../src/state/index.js';
import { watchExchanges } from '../../helpers/openapi.js';
import { noSleep, SCORE_NAMES, seed, stackConfig, startStack, type Personality, type Stack } from './harness.js';

const MIN = 60_000;
const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});

describe.each<Personality>(['v3', 'v4'])('scores read back after a tick (%s stand-in)', (personality) => {
  it('a score Langfuse drops after its 207 is detected, counted, and its trace scored again once', async () => {
    let now = Date.parse('2025-06-02T12:00:00Z');
    const stack = await startStack(personality, { now: () => now });
    stacks.push(stack);
    const { violations } = watchExchanges(stack.lf);
    await seed(stack, personality, 80, new Date(now - 11 * MIN), 21, 30);
    // Langfuse's worker drops three of the scores it acknowledges.
    stack.lf.faults.set('POST /api/public/ingestion', { dropScoresNext: 3 });
    const state = openSqliteState({ path: ':memory:' });
    const metrics = createServiceMetrics({ scoreMetrics: ['faithfulness', 'answer_relevancy'], processMetrics: false });
    const config = stackConfig(stack, { sampling: { rate: 0.5 }, online: { readBack: { sample: 1000 } } });
    const waits: number[] = [];
    const online = await createOnlineRuntime(config, {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
      state,
      recorder: metrics,
    });
    // The read-back's waits move the stand-in's clock: what it waits for is Langfuse's time passing.
    const deps = {
      ...online.deps,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    };

    const first = await runOnlineTick(deps, online.settings);
    expect(first.outcome).toBe('success');
    const dropped = stack.lf.store.droppedScores();
    expect(dropped).toHaveLength(3);
    expect(first.scoresReadBack).toBe(first.scoresWritten);
    expect(first.scoresUnconfirmed).toBe(3);
    expect(waits.reduce((a, b) => a + b, 0)).toBe(60_000);
    const exposition = await metrics.render();
    expect(exposition).toMatch(/^ragwatch_scores_unconfirmed_total 3$/m);
    expect(exposition).toMatch(new RegExp(`^ragwatch_scores_read_back_total ${first.scoresWritten}$`, 'm'));

    const requeued = first.traces.filter((t) => t.reason === 'langfuse:score_unconfirmed');
    const droppedTraces = new Set(
      requeued.filter((t) => SCORE_NAMES.some((n) => dropped.some((d) => d.id === scoreIdFor(t.traceId, n)))),
    );
    expect(droppedTraces.size).toBe(requeued.length);
    expect(requeued.length).toBeGreaterThan(0);
    for (const t of requeued) {
      expect(t.status).toBe('failed');
      expect(await state.getEntry(t.traceId)).toMatchObject({
        status: 'failed',
        lastError: 'langfuse:score_unconfirmed',
      });
    }

    // After the retry backoff the next tick scores them again: the same ids, each score once, all confirmed.
    now += 10 * MIN;
    const second = await runOnlineTick(deps, online.settings);
    expect(second.scoresUnconfirmed).toBe(0);
    for (const t of requeued) {
      expect((await state.getEntry(t.traceId))?.status).toBe('done');
      for (const name of SCORE_NAMES) {
        const scores = stack.lf.store.scores({ traceId: t.traceId, name });
        expect(scores.map((s) => s.id)).toEqual([scoreIdFor(t.traceId, name)]);
      }
    }
    expect(await metrics.render()).toMatch(/^ragwatch_scores_unconfirmed_total 3$/m);
    expect(violations).toEqual([]);
    await state.close();
  }, 120_000);
});
