import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDemoSummary } from '@ragwatch/devkit/corpus/index.js';
import { scoreIdFor } from '../../../src/langfuse/index.js';
import { ONLINE_JOB, runOnlineTick, type TickReport } from '../../../src/online/job.js';
import { createOnlineRuntime, type OnlineRuntime } from '../../../src/online/runtime.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import {
  expectedSampled,
  isRag,
  noSleep,
  SCORE_NAMES,
  seed,
  stackConfig,
  startStack,
  type Personality,
  type Stack,
} from './harness.js';
import { testRuntime } from '../../../src/runtime/index.js';

const MIN = 60_000;

describe.each<Personality>(['v3', 'v4'])('online tick against the %s stand-in', (personality) => {
  let now = Date.parse('2025-06-02T12:00:00Z');
  let stack: Stack;
  let seeded: SeedDemoSummary;
  let state: StateStore;
  let runtime: OnlineRuntime;
  let first: TickReport;

  beforeAll(async () => {
    stack = await startStack(personality, { now: () => now });
    // v4 servers take no legacy ingestion events, so fewer of the generated traces land there
    seeded = await seed(stack, personality, personality === 'v3' ? 1050 : 1250, new Date(now - 11 * MIN));
    state = openSqliteState({ path: ':memory:' });
    runtime = await createOnlineRuntime(stackConfig(stack), {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
      state,
    });
    first = await runOnlineTick(runtime.deps, runtime.settings);
  }, 240_000);

  afterAll(async () => {
    await state?.close();
    await stack?.close();
  });

  it('samples exactly the traces the formula picks out of ≥1000', async () => {
    expect(seeded.traceIds.length).toBeGreaterThanOrEqual(1000);
    expect(first.outcome).toBe('success');
    expect(first.listed).toBe(seeded.traceIds.length);
    const expected = expectedSampled(seeded.traceIds, 0.1);
    const inLedger = new Set<string>();
    for (const status of ['pending', 'done', 'skipped', 'failed', 'dead'] as const) {
      for (const e of await state.listByStatus(status, 10_000)) inLedger.add(e.traceId);
    }
    expect([...inLedger].sort()).toEqual([...expected].sort());
    expect(first.sampled).toBe(expected.size);
  });

  it('scores every sampled RAG trace once per metric on its own trace id, and nothing else', async () => {
    const byId = new Map(seeded.traces.map((t) => [t.id, t]));
    const sampled = expectedSampled(seeded.traceIds, 0.1);
    const rag = [...sampled].filter((id) => isRag(byId.get(id)!));
    expect(rag.length).toBeGreaterThan(50);
    const notScorable = new Map(
      first.traces.map((t) => [t.traceId, new Set(t.notScorable.map((m) => `ragas-${m.replace('_', '-')}`))]),
    );
    for (const id of rag) {
      expect((await state.getEntry(id))?.status, id).toBe('done');
      for (const name of SCORE_NAMES) {
        const scores = stack.lf.store.scores({ traceId: id, name });
        const expectedCount = notScorable.get(id)?.has(name) ? 0 : 1;
        expect(scores, `${id} ${name}`).toHaveLength(expectedCount);
        if (expectedCount === 1) {
          expect(scores[0]!.id).toBe(scoreIdFor(id, name));
          expect(scores[0]!.value).toBeGreaterThanOrEqual(0);
          expect(scores[0]!.value).toBeLessThanOrEqual(1);
          expect(scores[0]!.configId).toBeTruthy();
          expect(new Date(scores[0]!.timestamp).toISOString().slice(0, 10)).toBe(
            byId.get(id)!.startTime.toISOString().slice(0, 10),
          );
        }
      }
    }
    const scoredTraces = new Set(stack.lf.store.scores().map((s) => s.traceId));
    for (const id of scoredTraces) expect(sampled.has(id!), `score on unsampled trace ${id}`).toBe(true);
    // not_scorable is the exception (e.g. an answer without claims), not the rule
    const missing = [...notScorable.values()].reduce((n, s) => n + s.size, 0);
    expect(missing).toBeLessThan(rag.length / 2);
  });

  it('skips sampled traces without a RAG sample, with a counted reason', async () => {
    const byId = new Map(seeded.traces.map((t) => [t.id, t]));
    const nonRag = [...expectedSampled(seeded.traceIds, 0.1)].filter((id) => !isRag(byId.get(id)!));
    expect(nonRag.length).toBeGreaterThan(0);
    for (const id of nonRag) {
      const entry = await state.getEntry(id);
      expect(entry?.status, id).toBe('skipped');
      expect(entry?.reason).toMatch(/^[a-z_]+$/);
      expect(stack.lf.store.scores({ traceId: id })).toHaveLength(0);
    }
    expect(Object.values(first.skipped).reduce((a, b) => a + b, 0)).toBe(nonRag.length);
  });

  it('writes nothing new on a second tick and moves the cursor', async () => {
    const before = stack.lf.store
      .scores()
      .map((s) => `${s.id}@${s.updatedAt}`)
      .sort();
    now += 5 * MIN;
    const second = await runOnlineTick(runtime.deps, runtime.settings);
    expect(second.outcome).toBe('success');
    expect(second.taken).toBe(0);
    expect(second.scoresWritten).toBe(0);
    expect(
      stack.lf.store
        .scores()
        .map((s) => `${s.id}@${s.updatedAt}`)
        .sort(),
    ).toEqual(before);
    expect(await state.getCursor(ONLINE_JOB)).toBe(now - 10 * MIN);
    const gauges = await state.getGauges();
    expect(gauges.rag_faithfulness_score).toBeCloseTo(first.means.faithfulness!, 12);
    expect(gauges.rag_answer_relevancy_score).toBeCloseTo(first.means.answer_relevancy!, 12);
  });
});
