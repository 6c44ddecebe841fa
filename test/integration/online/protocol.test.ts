import { afterEach, describe, expect, it } from 'vitest';
import { ONLINE_JOB, runOnlineTick } from '../../../src/online/job.js';
import { createOnlineRuntime } from '../../../src/online/runtime.js';
import { openSqliteState } from '../../../src/state/index.js';
import type { StateStore } from '../../../src/state/types.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { captureLogger } from '../../helpers/capture-logger.js';
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
 * Langfuse answers that do not have the API's shape, put in by a proxy in front of the stand-in: a listing
 * that is not a page fails the tick and keeps the cursor; a trace fetched by id that is some other object
 * is a retryable failure, never a final skip.
 */

const MIN = 60_000;
let stack: Stack | undefined;
let proxy: FaultProxy | undefined;
let state: StateStore | undefined;
afterEach(async () => {
  await state?.close();
  await proxy?.close();
  await stack?.close();
  stack = undefined;
  proxy = undefined;
  state = undefined;
});

const LIST_ROUTE: Record<Personality, string> = { v3: 'GET /api/public/traces', v4: 'GET /api/public/v2/observations' };

async function setUp(personality: Personality, count = 60) {
  let now = Date.parse('2025-06-02T12:00:00Z');
  stack = await startStack(personality, { now: () => now });
  const seeded = await seed(stack, personality, count, new Date(now - 11 * MIN));
  proxy = await startFaultProxy(stack.lf.url);
  state = openSqliteState({ path: ':memory:' });
  const base = stackConfig(stack, { sampling: { rate: 0.5 } });
  const config = parseConfig({ ...base, langfuse: { ...base.langfuse, baseUrl: proxy.url } });
  const logs = captureLogger();
  const runtime = await createOnlineRuntime(config, {
    runtime: testRuntime({ now: { now: () => now }, sleep: noSleep, logger: logs.logger }),
    state,
    skipScoreConfigs: true,
  });
  return { seeded, runtime, logs, advance: (ms: number) => (now += ms), now: () => now };
}

describe.each<Personality>(['v3', 'v4'])('Langfuse answers of the wrong shape (%s)', (personality) => {
  const listing = (when?: (q: URLSearchParams) => boolean) => ({
    match: LIST_ROUTE[personality],
    // the v4 listing of a window, not the per-trace fetch (which carries traceId)
    when: (r: { query: URLSearchParams }) => !r.query.has('traceId') && (when?.(r.query) ?? true),
  });

  it.each([
    ['{"data": "x"}', { data: 'x' }],
    ['null', null],
    ['a page without meta', { data: [] }],
    [
      'rows without ids',
      { data: [{ name: 'qa' }], meta: { page: 1, limit: 100, totalItems: 1, totalPages: 1, cursor: null } },
    ],
  ])('a listing answered 200 %s fails the tick, keeps the cursor and says so', async (_label, body) => {
    const { runtime, logs } = await setUp(personality);
    proxy!.add({ ...listing(), action: { kind: 'respond', status: 200, body } });
    const report = await runOnlineTick(runtime.deps, runtime.settings);
    expect(report.outcome).toBe('incomplete');
    expect(report.error).toBe('langfuse:protocol');
    expect(report.taken).toBe(0);
    // the first run only pins where it started: nothing beyond the start of the look-back
    expect(await state!.getCursor(ONLINE_JOB)).toBe(Date.parse(report.window!.from));
    expect((await state!.getJobRun(ONLINE_JOB))!.lastSuccessAt).toBeNull();
    expect(logs.records().some((r) => r.level === 'warn' && r.error === 'langfuse:protocol')).toBe(true);
  });

  it('a page whose meta is broken fails the tick, and the next tick takes the whole window', async () => {
    const { runtime, seeded, advance } = await setUp(personality, 120);
    const meta = personality === 'v3' ? { page: '1', limit: 100 } : { cursor: 5 };
    proxy!.add({ ...listing(), action: { kind: 'rewrite', transform: (body) => ({ ...(body as object), meta }) } });
    const broken = await runOnlineTick(runtime.deps, runtime.settings);
    expect(broken).toMatchObject({ outcome: 'incomplete', error: 'langfuse:protocol', taken: 0 });
    proxy!.clear();
    advance(5 * MIN);
    const next = await runOnlineTick(runtime.deps, runtime.settings);
    expect(next.outcome).toBe('success');
    const counts = await state!.countByStatus();
    expect(counts.done + counts.skipped).toBe(expectedSampled(seeded.traceIds, 0.5).size);
  });

  it('a trace fetched by id that comes back as another object is a retryable failure, never skipped', async () => {
    const { runtime, seeded, advance } = await setUp(personality);
    const sampled = [...expectedSampled(seeded.traceIds, 0.5)];
    const byId = new Map(seeded.traces.map((t) => [t.id, t]));
    const victim = sampled.find((id) => isRag(byId.get(id)!))!;
    const foreign =
      personality === 'v3'
        ? {
            id: 'some-other-trace',
            timestamp: '2025-06-02T11:00:00.000Z',
            name: 'qa',
            observations: [],
            tags: [],
            environment: 'default',
          }
        : {
            data: [{ id: 'o-1', traceId: 'some-other-trace', startTime: '2025-06-02T11:00:00.000Z', type: 'SPAN' }],
            meta: {},
          };
    const byIdRoute = personality === 'v3' ? `GET /api/public/traces/${victim}` : 'GET /api/public/v2/observations';
    proxy!.add({
      match: byIdRoute,
      when: (r) => personality === 'v3' || r.query.get('traceId') === victim,
      action: { kind: 'respond', status: 200, body: foreign },
    });
    // an object that is no trace at all, for a second victim
    const second = sampled.find((id) => id !== victim && isRag(byId.get(id)!))!;
    proxy!.add({
      match: personality === 'v3' ? `GET /api/public/traces/${second}` : 'GET /api/public/v2/observations',
      when: (r) => personality === 'v3' || r.query.get('traceId') === second,
      action: { kind: 'respond', status: 200, body: { hello: 'world' } },
    });
    const report = await runOnlineTick(runtime.deps, runtime.settings);
    for (const id of [victim, second]) {
      const entry = await state!.getEntry(id);
      expect(entry!.status, id).toBe('failed');
      expect(entry!.lastError, id).toBe('langfuse:protocol');
      expect(report.traces.find((t) => t.traceId === id)).toMatchObject({
        status: 'failed',
        reason: 'langfuse:protocol',
      });
    }
    proxy!.clear();
    advance(30 * MIN);
    await runOnlineTick(runtime.deps, runtime.settings);
    for (const id of [victim, second]) expect((await state!.getEntry(id))!.status, id).toBe('done');
  });
});
