import { describe, expect, it } from 'vitest';
import { LangfuseApiError, scoreIdFor } from '../../../src/langfuse/index.js';
import { noopRecorder, type OnlineRecorder } from '../../../src/online/ports.js';
import { runOnlineTick } from '../../../src/online/job.js';
import { readBackSample, readBackWaits } from '../../../src/online/read-back.js';
import { FakeLangfuse, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;

function ragTraces(n: number): FakeTrace[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `trace-${String(i + 1).padStart(4, '0')}`,
    name: 'rag-query',
    timestamp: NOW - 60 * MIN + i * 1000,
    rag: true,
  }));
}

/** Every trace sampled, every score read back. */
const settings = (over: Parameters<typeof testSettings>[0] = {}) =>
  testSettings({
    sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} },
    readBack: { sample: 1000, withinSeconds: 60 },
    ...over,
  });

function countingRecorder() {
  const counts = { readBack: 0, unconfirmed: 0 };
  const recorder: OnlineRecorder = {
    ...noopRecorder,
    scoresReadBack: (checked, unconfirmed) => {
      counts.readBack += checked;
      counts.unconfirmed += unconfirmed;
    },
  };
  return { counts, recorder };
}

const sleeper = () => {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
};

describe('reading scores back after a run', () => {
  it('waits doubling from a second up to the bound, and samples the same traces whoever asks', () => {
    expect(readBackWaits(60)).toEqual([1000, 2000, 4000, 8000, 16000, 29000]);
    expect(readBackWaits(1)).toEqual([1000]);
    const written = ragTraces(50).map((t) => ({ traceId: t.id, scoreIds: [`${t.id}-s`] }));
    const sample = readBackSample(written, 10);
    expect(sample).toHaveLength(10);
    expect(
      readBackSample([...written].reverse(), 10)
        .map((w) => w.traceId)
        .sort(),
    ).toEqual(sample.map((w) => w.traceId).sort());
    expect(readBackSample(written.slice(0, 3), 10)).toHaveLength(3);
    expect(readBackSample(written, 0)).toEqual([]);
  });

  it('a score dropped after the 207 is counted, its trace re-queued, and the next run writes it once', async () => {
    const lf = new FakeLangfuse(ragTraces(12));
    lf.dropNext = 3;
    const clock = new ManualClock(NOW);
    const { counts, recorder } = countingRecorder();
    const { sleeps, sleep } = sleeper();
    const deps = jobDeps(lf, clock, { recorder, sleep });
    const first = await runOnlineTick(deps, settings());

    expect(first.outcome).toBe('success');
    expect(first.scoresWritten).toBe(24);
    expect(first.scoresReadBack).toBe(24);
    expect(first.scoresUnconfirmed).toBe(3);
    expect(counts).toEqual({ readBack: 24, unconfirmed: 3 });
    // It looked again after each wait, up to the bound, for the three that never came.
    expect(sleeps).toEqual(readBackWaits(60));
    const unconfirmed = first.traces.filter((t) => t.reason === 'langfuse:score_unconfirmed');
    expect(unconfirmed.length).toBeGreaterThanOrEqual(2);
    expect(unconfirmed.length).toBeLessThanOrEqual(3);
    for (const t of unconfirmed) {
      expect(t.status).toBe('failed');
      // One line per trace: the earlier `done` gave way.
      expect(first.traces.filter((x) => x.traceId === t.traceId)).toHaveLength(1);
      expect(await deps.state.getEntry(t.traceId)).toMatchObject({
        status: 'failed',
        lastError: 'langfuse:score_unconfirmed',
        attempts: 1,
      });
    }
    const done = (await deps.state.countByStatus()).done;
    expect(done).toBe(12 - unconfirmed.length);

    // The retry: the same deterministic ids, written once, confirmed.
    clock.advance(10 * MIN);
    const second = await runOnlineTick(deps, settings());
    expect(second.scoresUnconfirmed).toBe(0);
    expect(second.evaluated).toBe(unconfirmed.length);
    for (const t of unconfirmed) {
      expect(await deps.state.getEntry(t.traceId)).toMatchObject({ status: 'done', attempts: 2 });
      for (const name of ['ragas-faithfulness', 'ragas-answer-relevancy'])
        expect(lf.scores.has(scoreIdFor(t.traceId, name))).toBe(true);
    }
    expect(lf.dropped.size).toBe(0);
    expect(lf.scores.size).toBe(24);
  });

  it('scores that appear late but within the bound are confirmed', async () => {
    const lf = new FakeLangfuse(ragTraces(4));
    const held = new Map<string, number>();
    const present = lf.presentScoreIds.bind(lf);
    // Langfuse's worker is slow: each score shows from the third look on.
    lf.presentScoreIds = async (ids) => {
      const seen = await present(ids);
      for (const id of ids) held.set(id, (held.get(id) ?? 0) + 1);
      return new Set([...seen].filter((id) => (held.get(id) ?? 0) >= 3));
    };
    const { sleeps, sleep } = sleeper();
    const report = await runOnlineTick(jobDeps(lf, new ManualClock(NOW), { sleep }), settings());
    expect(report.scoresUnconfirmed).toBe(0);
    expect(report.scoresReadBack).toBe(8);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('when every score read back is missing, the traces go back to pending and no attempt is charged', async () => {
    const lf = new FakeLangfuse(ragTraces(5));
    lf.dropNext = 1000;
    const clock = new ManualClock(NOW);
    const deps = jobDeps(lf, clock, { sleep: sleeper().sleep });
    const report = await runOnlineTick(deps, settings());
    expect(report.scoresUnconfirmed).toBe(10);
    expect(await deps.state.countByStatus()).toMatchObject({ pending: 5, done: 0, failed: 0 });
    expect(await deps.state.getEntry('trace-0001')).toMatchObject({ status: 'pending', attempts: 0 });
    expect(report.traces.every((t) => t.status === 'pending' && t.reason === 'langfuse:score_unconfirmed')).toBe(true);
  });

  it('reads a sample only, and nothing when the sample is 0; a read path that fails counts nothing', async () => {
    const lf = new FakeLangfuse(ragTraces(30));
    const report = await runOnlineTick(
      jobDeps(lf, new ManualClock(NOW)),
      settings({ readBack: { sample: 5, withinSeconds: 60 } }),
    );
    expect(report.scoresReadBack).toBe(10);
    expect(lf.readBacks).toHaveLength(1);
    expect(lf.readBacks[0]).toHaveLength(10);

    const off = new FakeLangfuse(ragTraces(30));
    await runOnlineTick(jobDeps(off, new ManualClock(NOW)), settings({ readBack: { sample: 0, withinSeconds: 60 } }));
    expect(off.readBacks).toHaveLength(0);

    const failing = new FakeLangfuse(ragTraces(6));
    failing.dropNext = 2;
    failing.presentScoreIds = async () => {
      throw new LangfuseApiError('down', 'GET /api/public/v2/scores', 'http', 503, true, 3);
    };
    const deps = jobDeps(failing, new ManualClock(NOW));
    const unread = await runOnlineTick(deps, settings());
    expect(unread.outcome).toBe('success');
    expect([unread.scoresReadBack, unread.scoresUnconfirmed]).toEqual([0, 0]);
    expect((await deps.state.countByStatus()).done).toBe(6);
  });
});
