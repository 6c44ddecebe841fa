import { afterEach, describe, expect, it } from 'vitest';
import { startJudgeServer, type JudgeServer } from '@ragwatch/devkit/judge/index.js';
import { runOnlineTick, type TickReport } from '../../../src/online/job.js';
import { createOnlineRuntime, type OnlineRuntime } from '../../../src/online/runtime.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { startFaultProxy, type FaultAction, type FaultProxy, type ProxyRule } from '../../helpers/fault-proxy.js';
import {
  expectedSampled,
  isRag,
  noSleep,
  seed,
  stackConfig,
  startStack,
  type Personality,
  type Stack,
} from './harness.js';
import { parseConfig } from '../../helpers/config.js';
import { testRuntime } from '../../../src/runtime/index.js';

/**
 * A dependency failing for every trace is an outage: the tick stops, the traces stay pending and no attempt
 * is charged, however many ticks it lasts. A trace failing on its own while the others succeed still walks
 * its attempts to dead. Faults come from a proxy in front of the Langfuse stand-in, or from a judge that
 * really checks its key.
 */

const MIN = 60_000;
let stack: Stack | undefined;
let proxy: FaultProxy | undefined;
let judge: JudgeServer | undefined;
let state: StateStore | undefined;
afterEach(async () => {
  await state?.close();
  await proxy?.close();
  await judge?.close();
  await stack?.close();
  stack = proxy = judge = state = undefined;
});

interface Setup {
  runtime: OnlineRuntime;
  rag: string[];
  sampled: Set<string>;
  advance(ms: number): void;
}

async function setUp(
  personality: Personality,
  options: { judgeKey?: { served: string; used: string }; maxAttempts?: number; concurrency?: number } = {},
): Promise<Setup> {
  let now = Date.parse('2025-06-02T12:00:00Z');
  stack = await startStack(personality, { now: () => now });
  const seeded = await seed(stack, personality, 90, new Date(now - 11 * MIN));
  proxy = await startFaultProxy(stack.lf.url);
  const base = stackConfig(stack, {
    sampling: { rate: 0.5 },
    online: { maxAttempts: options.maxAttempts ?? 2, retryBackoffSeconds: 60, concurrency: options.concurrency ?? 4 },
  });
  let judgeSection = base.judge;
  if (options.judgeKey) {
    judge = await startJudgeServer({ host: '127.0.0.1', port: 0, apiKey: options.judgeKey.served });
    judgeSection = { ...base.judge, baseUrl: judge.url, apiKey: options.judgeKey.used };
  }
  const config = parseConfig({
    ...base,
    langfuse: { ...base.langfuse, baseUrl: proxy.url },
    judge: judgeSection,
    embeddings: { ...base.embeddings, ...(judge ? { baseUrl: judge.url, apiKey: options.judgeKey!.used } : {}) },
  });
  state = openSqliteState({ path: ':memory:' });
  const runtime = await createOnlineRuntime(config, {
    runtime: testRuntime({ now: { now: () => now }, sleep: noSleep }),
    state,
  });
  const sampled = expectedSampled(seeded.traceIds, 0.5);
  const byId = new Map(seeded.traces.map((t) => [t.id, t]));
  return { runtime, sampled, rag: [...sampled].filter((id) => isRag(byId.get(id)!)), advance: (ms) => (now += ms) };
}

async function expectNothingCharged(report: TickReport, setup: Setup) {
  expect(report.outcome).toBe('incomplete');
  expect(report.failed).toBe(0);
  expect(report.dead).toBe(0);
  const counts = await state!.countByStatus();
  expect(counts.failed + counts.dead + counts.done).toBe(0);
  const pending = await state!.listByStatus('pending', 1000);
  expect(pending.length).toBeGreaterThan(0);
  for (const entry of pending) expect(entry.attempts, entry.traceId).toBe(0);
  expect(setup.rag.length).toBeGreaterThan(3);
}

const BY_ID: Record<Personality, Pick<ProxyRule, 'match' | 'when'>> = {
  v3: { match: 'GET /api/public/traces/*' },
  v4: { match: 'GET /api/public/v2/observations', when: (r) => r.query.has('traceId') },
};

describe.each<Personality>(['v3', 'v4'])('outages are not charged to traces (%s)', (personality) => {
  it.each<[string, FaultAction]>([
    ['503', { kind: 'respond', status: 503, body: { message: 'unavailable' } }],
    ['an HTML page with 200', { kind: 'html', status: 200 }],
    ['a 207 of the wrong shape', { kind: 'respond', status: 207, body: { ok: true } }],
  ])(
    'score writes answered %s on every tick leave every trace pending with no attempt charged',
    async (_label, action) => {
      const setup = await setUp(personality);
      proxy!.add({ match: 'POST /api/public/ingestion', action });
      for (let tick = 0; tick < 3; tick++) {
        const report = await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
        await expectNothingCharged(report, setup);
        expect(report.error).toMatch(/^langfuse:ingestion_/);
        setup.advance(5 * MIN);
      }
      proxy!.clear();
      const healed = await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
      expect(healed.outcome).toBe('success');
      for (const id of setup.rag) expect((await state!.getEntry(id))!.status, id).toBe('done');
      expect(stack!.lf.store.scores().length).toBeGreaterThan(0);
    },
  );

  it('per-trace reads failing while the listing works leave every trace pending with no attempt charged', async () => {
    const setup = await setUp(personality);
    proxy!.add({ ...BY_ID[personality], action: { kind: 'respond', status: 500, body: { message: 'boom' } } });
    for (let tick = 0; tick < 3; tick++) {
      const report = await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
      await expectNothingCharged(report, setup);
      expect(report.error).toBe('langfuse:http_500');
      setup.advance(5 * MIN);
    }
    // The cursor no longer waits at the earliest pending trace: the ledger holds the work left, so the assertion is
    // that every sampled trace is there, pending and uncharged (taken again by the next tick, as before).
    const pending = new Set((await state!.listByStatus('pending', 1000)).map((e) => e.traceId));
    for (const id of setup.rag) expect(pending.has(id), id).toBe(true);
  });

  it('a judge that rejects the key leaves every trace pending with no attempt charged', async () => {
    const setup = await setUp(personality, { judgeKey: { served: 'the-right-key', used: 'a-rotated-key' } });
    for (let tick = 0; tick < 3; tick++) {
      const report = await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
      await expectNothingCharged(report, setup);
      expect(report.error).toMatch(/http_401$/);
      setup.advance(5 * MIN);
    }
  });

  it('a trace whose score write fails alone while the others succeed walks its attempts to dead', async () => {
    const setup = await setUp(personality);
    const victim = setup.rag[0]!;
    // Score writes are batched across traces: the 207 answers the victim's events with 503, the others' with 201.
    proxy!.add({
      match: 'POST /api/public/ingestion',
      action: {
        kind: 'rewrite',
        transform: (body, request) => {
          const events = (JSON.parse(request.body) as { batch: Array<{ id: string; body: { traceId: string } }> })
            .batch;
          const victims = new Set(events.filter((e) => e.body.traceId === victim).map((e) => e.id));
          const answer = body as { successes: Array<{ id: string; status: number }>; errors: unknown[] };
          return {
            successes: answer.successes.filter((s) => !victims.has(s.id)),
            errors: [...answer.errors, ...[...victims].map((id) => ({ id, status: 503, message: 'unavailable' }))],
          };
        },
      },
    });
    const first = await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
    expect(first.outcome).toBe('success');
    expect(await state!.getEntry(victim)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'langfuse:ingestion_http_503',
    });
    setup.advance(2 * MIN);
    await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
    expect(await state!.getEntry(victim)).toMatchObject({ status: 'dead', attempts: 2 });
    for (const id of setup.rag.slice(1)) expect((await state!.getEntry(id))!.status, id).toBe('done');
  });

  it('a trace that cannot be read alone while the others can walks its attempts to dead', async () => {
    const setup = await setUp(personality);
    const victim = setup.rag[1]!;
    const rule = BY_ID[personality];
    proxy!.add({
      match: personality === 'v3' ? `GET /api/public/traces/${victim}` : rule.match,
      when: (r) => personality === 'v3' || r.query.get('traceId') === victim,
      action: { kind: 'respond', status: 500, body: { message: 'boom' } },
    });
    await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
    expect(await state!.getEntry(victim)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'langfuse:http_500',
    });
    setup.advance(2 * MIN);
    await runOnlineTick(setup.runtime.deps, setup.runtime.settings);
    expect(await state!.getEntry(victim)).toMatchObject({ status: 'dead', attempts: 2, reason: 'langfuse:http_500' });
  });
});
