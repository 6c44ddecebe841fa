import { describe, expect, it } from 'vitest';
import { runOnlineTick } from '../../../src/online/job.js';
import { noopRecorder, type OnlineRecorder } from '../../../src/online/ports.js';
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
