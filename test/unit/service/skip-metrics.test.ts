import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../../../src/service/metrics.js';
import { createTraceNameLabels, MAX_TRACE_NAME_LABELS } from '../../../src/service/trace-name-label.js';

/** Skips by reason and trace name, so a rise of not_rag for one app shows; the label set stays bounded. */

function series(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('ragwatch_traces_skipped_total{'));
}

describe('skip metrics by trace name', () => {
  it('counts skips per reason and trace name', async () => {
    const m = createServiceMetrics({ scoreMetrics: [], processMetrics: false });
    m.traceSkipped('not_rag', 'support-chat');
    m.traceSkipped('not_rag', 'support-chat');
    m.traceSkipped('no_contexts', 'POST /ask');
    m.traceSkipped('pii_residual', null);
    const text = await m.render();
    expect(series(text).sort()).toEqual([
      'ragwatch_traces_skipped_total{reason="no_contexts",trace_name="POST /ask"} 1',
      'ragwatch_traces_skipped_total{reason="not_rag",trace_name="support-chat"} 2',
      'ragwatch_traces_skipped_total{reason="pii_residual",trace_name="unnamed"} 1',
    ]);
  });

  it(`keeps at most ${MAX_TRACE_NAME_LABELS} trace names and folds the rest into "other"`, async () => {
    const m = createServiceMetrics({ scoreMetrics: [], processMetrics: false });
    for (let i = 0; i < 100; i++) m.traceSkipped('not_rag', `app-${i}`);
    m.traceSkipped('not_rag', 'app-3');
    const names = new Set(series(await m.render()).map((l) => /trace_name="([^"]*)"/.exec(l)![1]));
    expect(names.size).toBe(MAX_TRACE_NAME_LABELS + 1);
    expect(names.has('other')).toBe(true);
    expect(names.has('app-3')).toBe(true);
  });

  it('never puts text that may be personal into a label: questions, e-mails, long numbers', () => {
    const labels = createTraceNameLabels();
    for (const name of [
      '¿Cuándo llega mi pedido 4411?',
      'ana.garcia@example.com',
      'order 612345678',
      'call +34 612 34 56 78',
      'a b c d e f',
      '',
      ' x',
    ]) {
      expect(labels.label(name), name).toBe('other');
    }
    for (const name of [
      'support-chat',
      'POST /chat',
      'retriever_query_engine.query',
      'support-answer:ai.generateText',
      'invoke_agent support',
    ]) {
      expect(labels.label(name)).toBe(name);
    }
  });

  it('any input gives a bounded, label-safe value', () => {
    const labels = createTraceNameLabels();
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'grapheme', maxLength: 120 }), { nil: null }), (name) => {
        const label = labels.label(name);
        expect(label).toMatch(/^[A-Za-z][A-Za-z0-9 _.:/#-]{0,79}$/);
        expect(label).not.toMatch(/\d{5}|@/);
      }),
      { numRuns: 500 },
    );
    expect(labels.size()).toBeLessThanOrEqual(MAX_TRACE_NAME_LABELS);
  });
});
