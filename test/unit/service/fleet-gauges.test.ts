import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/runtime/index.js';
import { fleetGaugeRefresher } from '../../../src/service/fleet-gauges.js';
import { createServiceMetrics } from '../../../src/service/metrics.js';

/**
 * Several replicas on one state: a replica that did not compute a figure (another listed, another ran the weekly
 * experiment) still exports the fleet's value, read from the state when scraped.
 */
function fakeState(gauges: Record<string, number>) {
  const state = {
    gauges,
    lastSuccessAt: null as number | null,
    fail: false,
    reads: 0,
    async getGauges() {
      state.reads += 1;
      if (state.fail) throw new Error('connection terminated');
      return { ...state.gauges };
    },
    async getJobRun() {
      return state.lastSuccessAt === null ? null : ({ lastSuccessAt: state.lastSuccessAt } as never);
    },
  };
  return state;
}

const sample = (text: string, name: string) => new RegExp(`^${name}(?:\\{[^}]*\\})? (.+)$`, 'm').exec(text)?.[1];

describe('fleet gauges on shared state', () => {
  it('export what another replica wrote to the state, refreshed at most once per maxAgeMs, the last values when the state fails', async () => {
    const metrics = createServiceMetrics({ scoreMetrics: ['faithfulness'], processMetrics: false });
    const state = fakeState({ rag_faithfulness_score: 0.91 });
    let now = 1_000_000;
    const refresh = fleetGaugeRefresher(state, metrics, { now: () => now, logger: silentLogger(), maxAgeMs: 5_000 });

    await refresh();
    expect(sample(await metrics.render(), 'rag_faithfulness_score')).toBe('0.91');
    expect(sample(await metrics.render(), 'rag_golden_gate_passed')).toBeUndefined();

    // Another replica lists and ran the weekly experiment: the state holds the fleet's new figures.
    state.gauges = {
      rag_faithfulness_score: 0.72,
      rag_golden_gate_passed: 0,
      rag_golden_last_run_timestamp_seconds: 1_700_000_000,
    };
    state.lastSuccessAt = 1_700_000_500_000;
    now += 1_000;
    await refresh();
    expect(state.reads).toBe(1);
    expect(sample(await metrics.render(), 'rag_faithfulness_score')).toBe('0.91');
    now += 5_000;
    await refresh();
    const text = await metrics.render();
    expect(sample(text, 'rag_faithfulness_score')).toBe('0.72');
    expect(sample(text, 'rag_golden_gate_passed')).toBe('0');
    expect(text).toMatch(/^ragwatch_job_last_success_timestamp_seconds\{job="online"\} 1700000500$/m);

    state.fail = true;
    state.gauges = { rag_faithfulness_score: 0.1 };
    now += 10_000;
    await expect(refresh()).resolves.toBeUndefined();
    expect(sample(await metrics.render(), 'rag_faithfulness_score')).toBe('0.72');
  });

  it('reads the state once for scrapes that arrive together', async () => {
    const metrics = createServiceMetrics({ scoreMetrics: ['faithfulness'], processMetrics: false });
    const state = fakeState({ rag_faithfulness_score: 0.5 });
    const refresh = fleetGaugeRefresher(state, metrics, { now: () => 0, logger: silentLogger() });
    await Promise.all([refresh(), refresh(), refresh()]);
    expect(state.reads).toBe(1);
  });
});
