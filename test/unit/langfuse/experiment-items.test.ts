import { describe, expect, it } from 'vitest';
import { EXPERIMENT_SCOPE, itemSpans } from '../../../src/langfuse/resources/experiment-items.js';
import { exportBody, isTraceId, type OtlpSpan } from '../../../src/langfuse/resources/otlp.js';

const input = {
  experiment: {
    experimentId: 'exp1',
    runName: 'weekly-2026-W48',
    description: 'd',
    metadata: { source: 'ragwatch' },
    datasetId: 'ds1',
  },
  traceId: 'a'.repeat(32),
  rootSpanId: 'b'.repeat(16),
  ownTrace: true,
  itemId: 'item-1',
  itemMetadata: { type: 'single-hop' },
  expectedOutput: 'ref',
  question: 'Q?',
  answer: 'A.',
  contexts: ['c1', 'c2'],
  startMs: 1_000,
  endMs: 1_500,
};

const attrs = (span: OtlpSpan): Record<string, string | undefined> =>
  Object.fromEntries(span.attributes.map((a) => [a.key, 'stringValue' in a.value ? a.value.stringValue : undefined]));

describe('experiment item spans', () => {
  it('carry the langfuse.experiment.* attributes the SDK experiment runner sets, on the root and its child', () => {
    const [root, child] = itemSpans(input, 'c'.repeat(16));
    const r = attrs(root!);
    expect(r).toMatchObject({
      'langfuse.experiment.id': 'exp1',
      'langfuse.experiment.name': 'weekly-2026-W48',
      'langfuse.experiment.dataset.id': 'ds1',
      'langfuse.experiment.item.id': 'item-1',
      'langfuse.experiment.item.root_observation_id': 'b'.repeat(16),
      'langfuse.experiment.item.expected_output': 'ref',
      'langfuse.environment': 'sdk-experiment',
      'langfuse.trace.name': 'ragwatch-experiment',
    });
    expect(JSON.parse(r['langfuse.experiment.metadata']!)).toEqual({ source: 'ragwatch' });
    expect(JSON.parse(r['langfuse.observation.output']!)).toEqual({ answer: 'A.', contexts: ['c1', 'c2'] });
    expect(root!.startTimeUnixNano).toBe('1000000000');
    expect(child!.parentSpanId).toBe('b'.repeat(16));
    expect(attrs(child!)['langfuse.observation.type']).toBe('retriever');
    expect(attrs(child!)['langfuse.experiment.item.root_observation_id']).toBe('b'.repeat(16));
  });

  it('leave the trace name and IO alone when the trace is the service’s own', () => {
    const r = attrs(itemSpans({ ...input, ownTrace: false, serviceTraceId: 'a'.repeat(32) })[0]!);
    expect(r['langfuse.trace.name']).toBeUndefined();
    expect(r['langfuse.trace.input']).toBeUndefined();
  });

  it('wrap spans in one resource and scope; only W3C trace ids can carry spans', () => {
    const body = exportBody(itemSpans(input), EXPERIMENT_SCOPE) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }>;
    };
    expect(body.resourceSpans[0]!.scopeSpans[0]!.spans).toHaveLength(2);
    expect(isTraceId('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isTraceId('0'.repeat(32))).toBe(false);
    expect(isTraceId('trace-123')).toBe(false);
    expect(isTraceId('0123456789ABCDEF0123456789ABCDEF')).toBe(false);
  });
});
