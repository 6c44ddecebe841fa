import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '@ragwatch/devkit/langfuse/index.js';
import { scoreIdFor } from '../../../src/langfuse/index.js';
import { runOnlineTick, type TickReport } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
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
let stack: Stack | undefined;
let state: StateStore | undefined;
afterEach(async () => {
  await state?.close();
  await stack?.close();
  stack = undefined;
  state = undefined;
});

describe.each<Personality>(['v3', 'v4'])('online job under faults (%s)', (personality) => {
  it('retries through Langfuse 429/500 bursts, resets and judge faults, writes nothing twice, and lets a poison trace die visibly', async () => {
    let now = Date.parse('2025-06-02T12:00:00Z');
    stack = await startStack(personality, { now: () => now });
    const seeded = await seed(stack, personality, 220, new Date(now - 11 * MIN));
    const rate = 0.3;
    const sampled = expectedSampled(seeded.traceIds, rate);
    const byId = new Map(seeded.traces.map((t) => [t.id, t]));
    const rag = [...sampled].filter((id) => isRag(byId.get(id)!));
    // A trace the judge can never answer for: its answer text (no personal data in it) gets broken JSON forever.
    const poison = rag.map((id) => byId.get(id)!).find((t) => t.pii.length === 0 && t.answer.length > 40)!;
    expect(poison).toBeDefined();
    stack.judge.script.answer({ match: poison.answer.slice(0, 40), raw: '{"statements": [' });

    const exchanges: Exchange[] = [];
    stack.lf.onExchange((e) => exchanges.push(e));
    stack.lf.faults.set('GET /api/public/traces*', { errorRate: 0.25, errorStatus: 500 });
    stack.lf.faults.set('GET /api/public/v2/observations*', {
      errorRate: 0.25,
      errorStatus: 429,
      retryAfterSeconds: 1,
    });
    stack.lf.faults.set('POST /api/public/ingestion', { failNext: 3, errorStatus: 503, resetRate: 0.15 });
    stack.judge.faults
      .rate('http_500', 0.1)
      .rate('reset', 0.05, { route: 'chat' })
      .rate('malformed_json', 0.05)
      .rate('http_503', 0.1, { route: 'embeddings' });

    state = openSqliteState({ path: ':memory:' });
    const config = stackConfig(stack, { sampling: { rate }, online: { maxAttempts: 3, retryBackoffSeconds: 60 } });
    const runtime = await createOnlineRuntime(config, {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
      state,
    });
    const reports: TickReport[] = [];
    for (let i = 0; i < 12; i++) {
      reports.push(await runOnlineTick(runtime.deps, runtime.settings));
      const counts = await state.countByStatus();
      if (counts.pending === 0 && counts.failed === 0 && reports.at(-1)!.outcome === 'success') break;
      now += 5 * MIN;
    }

    // the faults really happened
    expect(exchanges.filter((e) => e.fault !== 'none').length).toBeGreaterThan(5);
    expect(stack.judge.faults.log.length).toBeGreaterThan(5);

    const counts = await state.countByStatus();
    expect(counts.pending).toBe(0);
    expect(counts.failed).toBe(0);
    expect(counts.dead).toBe(1);
    const dead = await state.getEntry(poison.id);
    expect(dead).toMatchObject({ status: 'dead', attempts: 3 });
    expect(dead!.reason).toMatch(/^metric:(faithfulness|answer_relevancy):[a-z_0-9]+$/);
    expect(reports.reduce((n, r) => n + r.dead, 0)).toBe(1);
    expect(stack.lf.store.scores({ traceId: poison.id })).toHaveLength(0);

    const notScorable = new Set(
      reports.flatMap((r) =>
        r.traces.flatMap((t) => t.notScorable.map((m) => `${t.traceId}/ragas-${m.replace('_', '-')}`)),
      ),
    );
    for (const id of rag) {
      if (id === poison.id) continue;
      expect((await state.getEntry(id))?.status, id).toBe('done');
      for (const name of SCORE_NAMES) {
        const scores = stack.lf.store.scores({ traceId: id, name });
        expect(
          scores.map((s) => s.id),
          `${id} ${name}`,
        ).toEqual(notScorable.has(`${id}/${name}`) ? [] : [scoreIdFor(id, name)]);
      }
    }
    // nothing written twice: every stored score is the one deterministic id of its trace and name
    const all = stack.lf.store.scores();
    expect(new Set(all.map((s) => `${s.traceId}/${s.name}`)).size).toBe(all.length);
    expect(stack.lf.store.droppedScores()).toEqual([]);
  }, 180_000);

  it('catches traces that become readable late through the overlap', async () => {
    let now = Date.parse('2025-06-02T12:00:00Z');
    stack = await startStack(personality, { now: () => now });
    // Traces stamped in the last 3 minutes, readable only 12 minutes after they arrive (beyond the 10-minute settle delay).
    const seeded = await seed(stack, personality, 60, new Date(now), 11, 3);
    stack.lf.faults.set('GET *', { readLagSeconds: 12 * 60 });
    state = openSqliteState({ path: ':memory:' });
    const rate = 0.5;
    const config = stackConfig(stack, { sampling: { rate } });
    const runtime = await createOnlineRuntime(config, {
      runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
      state,
    });

    now += 11 * MIN;
    const early = await runOnlineTick(runtime.deps, runtime.settings);
    expect(early.outcome).toBe('success');
    expect(early.listed).toBe(0);

    now += 5 * MIN;
    const late = await runOnlineTick(runtime.deps, runtime.settings);
    const sampled = expectedSampled(seeded.traceIds, rate);
    expect(late.listed).toBe(seeded.traceIds.length);
    expect(late.sampled).toBe(sampled.size);
    const byId = new Map(seeded.traces.map((t) => [t.id, t]));
    for (const id of sampled)
      expect((await state.getEntry(id))?.status, id).toBe(isRag(byId.get(id)!) ? 'done' : 'skipped');
  }, 120_000);
});
