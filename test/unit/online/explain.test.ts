import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JudgeCallRecord } from '../../../src/judge-calls/index.js';
import { prepareSample } from '../../../src/metrics/prepare.js';
import type { MetricResult } from '../../../src/metrics/types.js';
import { formatOneTrace, oneTraceJson } from '../../../src/online/explain.js';
import type { OneTraceResult } from '../../../src/online/one-trace.js';
import type { RagSample } from '../../../src/sample.js';
import { defaultMetricsOptions } from '../../helpers/config.js';

const usage = { calls: 1, promptTokens: 1200, completionTokens: 80, latencyMs: 900 };
const call = (
  name: string,
  value: unknown,
  messages = [
    { role: 'system' as const, content: 'SYSTEM RULES' },
    { role: 'user' as const, content: `<task>${name}</task>` },
  ],
): JudgeCallRecord => ({
  name,
  model: 'judge',
  messages,
  startedAt: 0,
  endedAt: 900,
  value,
  usage,
});

function result(sample: RagSample, extra: Partial<OneTraceResult> = {}): OneTraceResult {
  return {
    traceId: 't-1',
    found: true,
    trace: { name: 'rag', timestamp: '2025-03-01T10:00:00.000Z', environment: 'production' },
    view: { shape: 'openai', sample, entities: 2 },
    ...extra,
  };
}

const sample: RagSample = {
  traceId: 't-1',
  question: 'Where is the invoice?',
  answer: 'In the app. Also by fax.',
  contexts: ['Invoices are in the app.'],
  meta: {},
};

describe('sample --trace output', () => {
  it('reads every kind of judge answer: claims, questions with flags and cosines, statements, per-chunk verdicts, errors', () => {
    const results: MetricResult[] = [
      {
        metric: 'faithfulness',
        status: 'scored',
        value: 0.5,
        reason: '1 of 2 claims supported',
        details: {},
        usage,
        promptVersion: 'en-x',
      },
      {
        metric: 'answer_relevancy',
        status: 'scored',
        value: 0.7,
        reason: 'mean cosine',
        details: { questions: [{ question: 'Where are invoices?', noncommittal: false, cosine: 0.91 }] },
        usage,
        promptVersion: 'en-y',
      },
      { metric: 'context_recall', status: 'not_scorable', reason: 'needs a reference answer' },
      {
        metric: 'context_precision',
        status: 'failed',
        error: 'judge unreachable',
        kind: 'connection',
        dependency: 'judge',
        retryable: true,
      },
    ];
    const calls = [
      call('ragwatch_faithfulness', [
        { claim: 'Invoices are in the app.', chunks: [1], supported: true },
        { claim: 'Invoices come by fax.', chunks: [], supported: false },
      ]),
      call('ragwatch_answer_relevancy', [
        { question: 'Where are invoices?', noncommittal: false },
        { question: 'Can you help?', noncommittal: true },
      ]),
      call('ragwatch_context_recall', [{ statement: 'The invoice is in the app.', chunks: [1, 2], attributed: true }]),
      call('ragwatch_context_precision', [true, false]),
      { ...call('ragwatch_claims_in_reference', undefined), error: { kind: 'http_500', message: 'server error' } },
    ];
    const given = prepareSample(sample, defaultMetricsOptions());
    const out = formatOneTrace(
      result(sample, {
        results,
        calls,
        outcome: { kind: 'done', scoreIds: [], scored: [], notScorable: [], written: false },
      }),
      given,
      { dryRun: true, showPrompts: false },
    );
    expect(out).toContain('--- ragwatch_faithfulness  (1 attempt, 1,200 prompt + 80 completion tokens, 900 ms)');
    expect(out).toContain(
      '    supported    Invoices are in the app.  (chunk 1)\n    UNSUPPORTED  Invoices come by fax.\n',
    );
    expect(out).toContain('    Where are invoices?  [committal, cosine 0.91]\n    Can you help?  [noncommittal]\n');
    expect(out).toContain('    attributed    The invoice is in the app.  (chunks 1, 2)');
    expect(out).toContain('  verdicts: [1] yes  [2] no');
    expect(out).toContain('  no usable answer: http_500: server error');
    expect(out).toContain('  faithfulness = 0.500  1 of 2 claims supported');
    expect(out).toContain('  context_recall: not scorable (needs a reference answer); no score written');
    expect(out).toContain('  context_precision: failed (judge unreachable)');
    // The system message once; each later call points back to it and summarises its user message.
    expect(out.split('[system] SYSTEM RULES')).toHaveLength(2);
    expect(out.split('[system] (the same as in ragwatch_faithfulness above)')).toHaveLength(5);
    expect(out).toContain('[user] <task>ragwatch_faithfulness</task>');
    expect(out).toContain('[user] (39 characters; --show-prompts prints every prompt)');

    const all = formatOneTrace(result(sample, { results, calls }), given, { dryRun: true, showPrompts: true });
    expect(all.split('[system] SYSTEM RULES')).toHaveLength(6);
    expect(all).not.toContain('--show-prompts');
  });

  it('marks each cut with the budget it met, and says in one line which chunks the budget left out', () => {
    const long: RagSample = {
      ...sample,
      answer: 'word '.repeat(20_000),
      contexts: [
        'First chunk kept in part. '.repeat(400),
        ...Array.from({ length: 3000 }, (_, i) => `chunk ${i} `.repeat(50)),
      ],
    };
    const given = prepareSample(long, defaultMetricsOptions());
    const out = formatOneTrace(result(long), given, { dryRun: true, showPrompts: false });
    expect(out).toMatch(/^ {2}answer: {3}(word )+\[…\] {2}\(cut: 20,000 → 1,500 tokens, metrics\.maxAnswerTokens\)$/m);
    expect(out).toMatch(/^ {2}contexts {2}\(cut: [\d,]+ → [\d,]+ tokens, metrics\.maxContextTokens\)$/m);
    const lines = out.split('\n');
    // whole leading chunks within maxContextTokens, one line each, never 3,001 lines
    expect(lines.length).toBeLessThan(100);
    expect(out).toMatch(/^ {2}context\[\d+\.\.3001\]: [\d,]+ chunks left out by the budget$/m);
    expect(out).not.toContain('word word word word '.repeat(2000));
  });

  it('its JSON carries what the judge was given, never the texts before the budgets', () => {
    const big: RagSample = { ...sample, answer: `${'x'.repeat(50)} `.repeat(100_000) };
    const given = prepareSample(big, defaultMetricsOptions());
    const json = JSON.stringify(oneTraceJson(result(big, { calls: [] }), given));
    expect(json.length).toBeLessThan(20_000);
    expect(JSON.parse(json)).toMatchObject({
      traceId: 't-1',
      view: { shape: 'openai', entities: 2, given: { truncated: { answer: { keptTokens: expect.any(Number) } } } },
      judgeCalls: [],
    });
  });

  it('never throws and keeps every line on its own, whatever the judge answered (property)', () => {
    const answer = fc.oneof(
      fc.array(fc.record({ claim: fc.string(), chunks: fc.array(fc.integer()), supported: fc.boolean() })),
      fc.array(fc.record({ question: fc.string({ unit: 'binary' }), noncommittal: fc.boolean() })),
      fc.array(fc.boolean()),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(answer, fc.string({ unit: 'binary' }), (value, text) => {
        const s: RagSample = { ...sample, question: text, answer: text, contexts: [text, '', text] };
        const out = formatOneTrace(
          result(s, { calls: [call('x', value)] }),
          prepareSample(s, defaultMetricsOptions()),
          { dryRun: false, showPrompts: false },
        );
        expect(out.startsWith('trace t-1')).toBe(true);
        expect(out.endsWith('\n')).toBe(true);
      }),
    );
  });
});
