import { describe, expect, it } from 'vitest';
import { runOnlineTick } from '../../../src/online/job.js';
import { noopRecorder, type OnlineRecorder } from '../../../src/online/ports.js';
import { traceNameKey } from '../../../src/internal/index.js';
import { FakeLangfuse, jobDeps, ManualClock, testSettings } from './fakes.js';

describe('online tick: skipped traces', () => {
  it('reports each skip with its reason and the trace name, for the per-name skip metric', async () => {
    const now = Date.parse('2025-03-03T12:00:00Z');
    const traces = Array.from({ length: 60 }, (_, i) => ({
      id: `t-${i}`,
      name: i % 2 === 0 ? 'support-chat' : 'small-talk',
      timestamp: now - 30 * 60_000 + i * 1000,
      rag: i % 2 === 0,
    }));
    const skips: Array<[string, string | null | undefined]> = [];
    const recorder: OnlineRecorder = {
      ...noopRecorder,
      traceSkipped: (reason, traceName) => void skips.push([reason, traceName]),
    };
    const deps = jobDeps(new FakeLangfuse(traces), new ManualClock(now), { recorder });
    const report = await runOnlineTick(
      deps,
      testSettings({ sampling: { rate: 1, salt: 'ragwatch-sampling-v1', rateByTraceName: {} } }),
    );
    expect(skips.length).toBe(report.skipped.no_contexts);
    expect(skips.length).toBeGreaterThan(0);
    expect(new Set(skips.map(([reason, name]) => `${reason}/${name}`))).toEqual(new Set(['no_contexts/small-talk']));
  });
});

describe('online tick: trace names built from a question', () => {
  it('samples by sampling.rateByTraceName on the name as written, and the ledger keeps only its key', async () => {
    const now = Date.parse('2025-03-03T12:00:00Z');
    const question = '¿Dónde está mi pedido? Soy Ana García';
    const traces = Array.from({ length: 40 }, (_, i) => ({
      id: `t-${i}`,
      name: i % 2 === 0 ? question : 'small-talk',
      timestamp: now - 30 * 60_000 + i * 1000,
      rag: true,
    }));
    const skips: Array<string | null | undefined> = [];
    const recorder: OnlineRecorder = { ...noopRecorder, traceSkipped: (_reason, name) => void skips.push(name) };
    const deps = jobDeps(new FakeLangfuse(traces), new ManualClock(now), { recorder });
    await runOnlineTick(
      deps,
      testSettings({ sampling: { rate: 0, salt: 'ragwatch-sampling-v1', rateByTraceName: { [question]: 1 } } }),
    );
    const entries = [
      ...(await deps.state.listByStatus('done', 100)),
      ...(await deps.state.listByStatus('skipped', 100)),
      ...(await deps.state.listByStatus('pending', 100)),
    ];
    expect(entries.map((e) => e.traceId).sort()).toEqual(
      traces
        .filter((_, i) => i % 2 === 0)
        .map((t) => t.id)
        .sort(),
    );
    for (const e of entries) expect(e.traceName).toBe(traceNameKey(question));
    expect(JSON.stringify(entries)).not.toContain('Ana');
  });
});
