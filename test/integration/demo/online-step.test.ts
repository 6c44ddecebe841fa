import { rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Personality } from '@ragwatch/devkit/corpus/index.js';
import { runDemo, type DemoEnvironment, type DemoStep } from '@ragwatch/devkit/demo/run-demo.js';
import { onlineStep, seedCorpusStep } from '@ragwatch/devkit/demo/steps/index.js';
import type { OnlineStepData } from '@ragwatch/devkit/demo/steps/online.js';
import { runOnlineTick } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { openSqliteState } from '../../../src/state/index.js';

const NOW = Date.parse('2026-03-02T10:00:00Z');
const SCORE_NAMES = ['ragas-answer-relevancy', 'ragas-faithfulness'];

/** The sampling formula, computed here on its own: first 53 bits of sha256(salt \0 id) over 2^53. */
function samplingPoint(traceId: string): number {
  const digest = createHash('sha256').update(`ragwatch-sampling-v1\0${traceId}`).digest();
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4) >>> 11;
  return (high * 2 ** 21 + low) / 2 ** 53;
}

function scoreSnapshot(env: DemoEnvironment) {
  return env.langfuse.store
    .scores()
    .map((s) => ({ id: s.id, traceId: s.traceId, name: s.name, value: s.value, updatedAt: s.updatedAt }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** A third tick from outside the demo step, against the same state file, watching every ingestion call. */
function afterwardsTick(observed: {
  ingestionPosts: number;
  report?: Awaited<ReturnType<typeof runOnlineTick>>;
}): DemoStep {
  return {
    name: 'again',
    title: 'one more tick on the same state file',
    async run(env) {
      const stop = env.langfuse.onExchange((e) => {
        if (e.method === 'POST' && e.path.startsWith('/api/public/ingestion')) observed.ingestionPosts += 1;
      });
      const state = openSqliteState({ path: env.config.state.path });
      try {
        const runtime = await createOnlineRuntime(env.config, {
          state,
          runtime: env.runtime,
        });
        observed.report = await runOnlineTick(runtime.deps, runtime.settings);
        return { ok: true, lines: [] };
      } finally {
        stop();
        await state.close();
      }
    },
  };
}

describe.each<Personality>(['v3', 'v4'])('demo online step (%s stand-in)', (personality) => {
  it('ticks over the seeded window, writes one score per metric on each sampled RAG trace, and a later tick writes nothing', async () => {
    const observed: { ingestionPosts: number; report?: Awaited<ReturnType<typeof runOnlineTick>> } = {
      ingestionPosts: 0,
    };
    let before: ReturnType<typeof scoreSnapshot> = [];
    const snapshot: DemoStep = {
      name: 'snapshot',
      title: 'remember the scores',
      async run(env) {
        before = scoreSnapshot(env);
        return { ok: true, lines: [] };
      },
    };
    const run = await runDemo({
      personality,
      seed: `online-${personality}`,
      traces: 60,
      now: () => NOW,
      steps: [seedCorpusStep, onlineStep, snapshot, afterwardsTick(observed)],
    });
    try {
      const online = run.steps.find((s) => s.name === 'online')!;
      expect(online.result.ok, online.result.lines.join('\n')).toBe(true);
      const data = online.result.data as OnlineStepData;
      const { env } = run;
      const sent = new Map(env.seeded.map((t) => [t.id, t]));
      expect(sent.size).toBeGreaterThan(0);

      // Exactly the traces the formula picks, among those the seed step sent.
      const expected = [...sent.keys()].filter((id) => samplingPoint(id) < 0.3).sort();
      expect(data.rate).toBe(0.3);
      expect(data.tick.listed).toBe(sent.size);
      expect(data.traces.map((t) => t.traceId)).toEqual(expected);
      expect(data.tick.sampled).toBe(expected.length);

      const done = data.traces.filter((t) => t.status === 'done');
      expect(done.length).toBeGreaterThan(0);
      for (const t of data.traces) {
        const seeded = sent.get(t.traceId)!;
        expect(t.shape).toBe(seeded.shape);
        const scores = env.langfuse.store.scores({ traceId: t.traceId }).filter((s) => s.name.startsWith('ragas-'));
        if (seeded.kind === 'rag') {
          expect(t.status).toBe('done');
          expect(scores.map((s) => s.name).sort()).toEqual(SCORE_NAMES);
          for (const s of scores) {
            expect(s.traceId).toBe(t.traceId);
            expect(t.scores[s.name]).toBe(s.value);
          }
        } else {
          expect(t.status).toBe('skipped');
          expect(t.reason).toMatch(/^(not_rag|no_contexts|no_answer)/);
          expect(scores).toEqual([]);
        }
      }
      const written = env.langfuse.store.scores().filter((s) => s.name.startsWith('ragas-'));
      expect(written).toHaveLength(done.length * SCORE_NAMES.length);
      // And the answer-leak score (online.answerLeak), one per evaluated trace.
      const leakScores = env.langfuse.store.scores().filter((s) => s.name === 'ragwatch-answer-leak');
      expect(leakScores).toHaveLength(done.length);
      expect(data.tick.scoresWritten).toBe(written.length + leakScores.length);
      const skippedTotal = Object.values(data.tick.skipped).reduce((a, b) => a + b, 0);
      expect(data.tick.evaluated + skippedTotal).toBe(data.tick.sampled);

      // The step's own second tick, and one more from outside it: nothing evaluated, nothing sent, nothing changed.
      expect(data.secondTick).toMatchObject({ outcome: 'success', evaluated: 0, scoresWritten: 0 });
      expect(observed.report).toMatchObject({ outcome: 'success', evaluated: 0, scoresWritten: 0 });
      expect(observed.ingestionPosts).toBe(0);
      expect(scoreSnapshot(env)).toEqual(before);

      const text = online.result.lines.join('\n');
      expect(text).toMatch(/listed \d+ · sampled \d+ · taken \d+/);
      expect(text).toContain('production uses 0.05–0.1');
      expect(text).toContain(`${done[0]!.traceId}  ${done[0]!.shape}/`);
      expect(text).toMatch(/ragas-faithfulness \d\.\d{3}/);
      expect(text).toContain(
        personality === 'v3'
          ? `${env.langfuse.url}/api/public/traces/`
          : `${env.langfuse.url}/api/public/v2/observations?traceId=`,
      );
      expect(text).toMatch(/second tick right after: success, .*scores written 0/);
    } finally {
      await run.close();
      rmSync(run.env.reports.dir, { recursive: true, force: true });
    }
  }, 120_000);
});
