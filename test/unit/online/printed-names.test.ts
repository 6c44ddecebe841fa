import { describe, expect, it } from 'vitest';
import { traceNameKey } from '../../../src/internal/index.js';
import { formatOneTrace, oneTraceJson } from '../../../src/online/explain.js';
import { formatPlan } from '../../../src/online/format.js';
import { scoreOneTrace } from '../../../src/online/one-trace.js';
import { planOnlineTick } from '../../../src/online/plan.js';
import { FakeLangfuse, jobDeps, ManualClock, testSettings, type FakeTrace } from './fakes.js';

/**
 * Issue 29, part 5: `sample --once --dry-run` and `sample --trace` print a trace's name only as its key (the name
 * when it reads as an identifier, else a hash), text and JSON alike.
 */

const NOW = Date.parse('2025-03-03T12:00:00Z');
const MIN = 60_000;
const CARELESS = '¿Dónde está mi pedido? Soy Ana García, ana.garcia@example.com';

const traces: FakeTrace[] = Array.from({ length: 40 }, (_, i) => ({
  id: `trace-${String(i + 1).padStart(3, '0')}`,
  name: i % 2 === 0 ? CARELESS : 'rag-answer',
  timestamp: NOW - 60 * MIN + i * MIN,
  rag: true,
}));

describe('trace names printed by sample', () => {
  it('sample --once --dry-run: the plan holds keys, never a careless name', async () => {
    const deps = jobDeps(new FakeLangfuse(traces), new ManualClock(NOW));
    const plan = await planOnlineTick(deps, testSettings({ sampling: { ...testSettings().sampling, rate: 1 } }));
    expect(plan.planned.length).toBeGreaterThan(2);
    const names = new Set(plan.planned.map((p) => p.traceName));
    expect(names).toEqual(new Set(['rag-answer', traceNameKey(CARELESS)]));
    for (const out of [formatPlan(plan), JSON.stringify(plan)]) {
      expect(out).not.toContain('Ana');
      expect(out).not.toContain('example.com');
      expect(out).toContain(traceNameKey(CARELESS)!);
    }
  });

  it('sample --trace: the explanation and its JSON name the trace by its key', async () => {
    const deps = jobDeps(new FakeLangfuse(traces), new ManualClock(NOW));
    const result = await scoreOneTrace(deps, testSettings(), 'trace-001', { dryRun: true });
    expect(result.trace?.name).toBe(traceNameKey(CARELESS));
    const text = formatOneTrace(result, null, { dryRun: true, showPrompts: false });
    const json = JSON.stringify(oneTraceJson(result, null));
    for (const out of [text, json]) {
      expect(out).not.toContain('Ana');
      expect(out).toContain(traceNameKey(CARELESS)!);
    }
  });
});
