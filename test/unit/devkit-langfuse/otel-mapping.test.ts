import { describe, expect, it } from 'vitest';
import { LangfuseStore } from '@ragwatch/devkit/langfuse/store.js';
import { ingestResourceSpans, InvalidOtlpError, validateResourceSpans } from '@ragwatch/devkit/langfuse/otel/map.js';

const s = (value: string) => ({ stringValue: value });
const attrs = (record: Record<string, unknown>) =>
  Object.entries(record).map(([key, value]) => ({
    key,
    value:
      typeof value === 'string'
        ? s(value)
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? { intValue: value }
            : { doubleValue: value }
          : { boolValue: value },
  }));
const nanos = (ms: number) => (BigInt(ms) * 1_000_000n).toString();
const T = Date.parse('2025-04-01T12:00:00.000Z');

function ingest(
  store: LangfuseStore,
  spans: unknown[],
  scope = 'openinference',
  resource: Record<string, unknown> = { 'service.name': 'rag-api' },
) {
  return ingestResourceSpans(
    store,
    validateResourceSpans([
      { resource: { attributes: attrs(resource) }, scopeSpans: [{ scope: { name: scope, version: '1.0' }, spans }] },
    ]),
  );
}

describe('OTLP → Langfuse mapping', () => {
  it('maps a third-party gen_ai span (no Langfuse attributes) to a generation with usage, model and io', () => {
    const store = new LangfuseStore({ personality: 'v4' });
    ingest(store, [
      {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        name: 'chat gpt-4o',
        startTimeUnixNano: nanos(T),
        endTimeUnixNano: nanos(T + 1500),
        attributes: attrs({
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.request.temperature': 0,
          'gen_ai.usage.input_tokens': 42,
          'gen_ai.usage.output_tokens': 7,
          'gen_ai.input.messages': '[{"role":"user","content":"hola"}]',
          'gen_ai.output.messages': '[{"role":"assistant","content":"qué tal"}]',
          'http.route': '/ask',
        }),
        status: { code: 2, message: 'upstream timeout' },
      },
    ]);
    const obs = store.getObservation('b7ad6b7169203331');
    expect(obs).toMatchObject({
      type: 'GENERATION',
      model: 'gpt-4o',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      level: 'ERROR',
      statusMessage: 'upstream timeout',
      input: '[{"role":"user","content":"hola"}]',
      startTime: T,
      endTime: T + 1500,
    });
    expect(obs?.usageDetails).toEqual({ input: 42, output: 7, total: 49 });
    expect(obs?.modelParameters).toEqual({ temperature: 0 });
    expect((obs?.metadata?.attributes as Record<string, string>)['http.route']).toBe('/ask');
    expect(obs?.metadata?.resourceAttributes).toEqual({ 'service.name': 'rag-api' });
    const trace = store.getTrace('0af7651916cd43dd8448eb211c80319c');
    expect(trace).toMatchObject({ name: 'chat gpt-4o', input: '[{"role":"user","content":"hola"}]', timestamp: T });
  });

  it('decodes byte-array ids to hex and honours as_root and trace attributes on child spans', () => {
    const store = new LangfuseStore({ personality: 'v3' });
    const traceBytes = Array.from({ length: 16 }, (_, i) => i);
    ingest(store, [
      {
        traceId: traceBytes,
        spanId: [1, 2, 3, 4, 5, 6, 7, 8],
        parentSpanId: [9, 9, 9, 9, 9, 9, 9, 9],
        name: 'child-first',
        startTimeUnixNano: nanos(T + 10),
        endTimeUnixNano: nanos(T + 20),
        attributes: attrs({
          'user.id': 'u-1',
          'session.id': 's-1',
          'langfuse.trace.tags': '["a","b"]',
          'langfuse.trace.metadata.tenant': 'acme',
        }),
      },
      {
        traceId: traceBytes,
        spanId: [2, 2, 2, 2, 2, 2, 2, 2],
        parentSpanId: [3, 3, 3, 3, 3, 3, 3, 3],
        name: 'app-root',
        startTimeUnixNano: nanos(T),
        endTimeUnixNano: nanos(T + 30),
        attributes: attrs({
          'langfuse.internal.as_root': 'true',
          'langfuse.trace.name': 'answer',
          'langfuse.trace.input': '{"q":1}',
        }),
      },
    ]);
    const traceId = Buffer.from(traceBytes).toString('hex');
    expect(store.getObservation('0102030405060708')?.parentObservationId).toBe('0909090909090909');
    expect(store.getTrace(traceId)).toMatchObject({
      name: 'answer',
      userId: 'u-1',
      sessionId: 's-1',
      tags: ['a', 'b'],
      input: '{"q":1}',
      timestamp: T,
    });
    expect(store.getTrace(traceId)?.metadata).toMatchObject({ tenant: 'acme' });
  });

  it('keeps experiment attributes for v4 runs', () => {
    const store = new LangfuseStore({ personality: 'v4' });
    store.createDataset({ name: 'golden', id: 'ds-1' });
    ingest(
      store,
      [
        {
          traceId: 'aa'.repeat(16),
          spanId: 'bb'.repeat(8),
          name: 'experiment-item-run',
          startTimeUnixNano: nanos(T),
          endTimeUnixNano: nanos(T + 5),
          attributes: attrs({
            'langfuse.observation.type': 'span',
            'langfuse.environment': 'sdk-experiment',
            'langfuse.experiment.id': 'exp-1',
            'langfuse.experiment.name': 'run-1',
            'langfuse.experiment.dataset.id': 'ds-1',
            'langfuse.experiment.item.id': 'item-9',
            'langfuse.experiment.item.root_observation_id': 'bb'.repeat(8),
            'langfuse.experiment.item.expected_output': '"42"',
            'langfuse.experiment.metadata': '{"model":"m1"}',
          }),
        },
      ],
      'langfuse-sdk',
    );
    const [run] = store.datasetRuns('golden');
    expect(run).toMatchObject({
      id: 'exp-1',
      name: 'run-1',
      datasetId: 'ds-1',
      datasetName: 'golden',
      metadata: { model: 'm1' },
    });
    expect(run?.items).toEqual([
      {
        id: 'bb'.repeat(8),
        datasetItemId: 'item-9',
        traceId: 'aa'.repeat(16),
        observationId: 'bb'.repeat(8),
        createdAt: T,
      },
    ]);
    expect(store.getObservation('bb'.repeat(8))?.environment).toBe('sdk-experiment');
    // Langfuse SDK spans do not copy raw attributes into metadata.
    expect(store.getObservation('bb'.repeat(8))?.metadata).not.toHaveProperty('attributes');
  });

  it('rejects the whole export when a span has no ids or attributes are not a list', () => {
    expect(() =>
      validateResourceSpans([{ scopeSpans: [{ spans: [{ spanId: 'ab' }, { traceId: 'a', spanId: 'b' }] }] }]),
    ).toThrow(InvalidOtlpError);
    expect(() =>
      validateResourceSpans([{ scopeSpans: [{ spans: [{ traceId: 'a', spanId: 'b', attributes: { k: 'v' } }] }] }]),
    ).toThrow(/attributes/);
  });
  it("reads the Vercel AI SDK's prompt, tool and response attributes as input and output (scope `ai` only)", () => {
    const store = new LangfuseStore({ personality: 'v3' });
    const span = (spanId: string, attributes: Record<string, unknown>) => ({
      traceId: 'aa11aa11aa11aa11aa11aa11aa11aa11',
      spanId,
      parentSpanId: spanId === 'root000000000001' ? undefined : 'root000000000001',
      name: String(attributes['ai.operationId'] ?? 'x'),
      startTimeUnixNano: nanos(T),
      endTimeUnixNano: nanos(T + 10),
      attributes: attrs(attributes),
    });
    ingest(
      store,
      [
        span('root000000000001', {
          'ai.operationId': 'ai.generateText',
          'ai.prompt': '{"prompt":"q?"}',
          'ai.response.text': 'the answer',
        }),
        span('tool000000000002', {
          'ai.operationId': 'ai.toolCall',
          'ai.toolCall.name': 'search',
          'ai.toolCall.args': '{"query":"q"}',
          'ai.toolCall.result': '[{"content":"doc"}]',
        }),
        span('gen0000000000003', {
          'ai.operationId': 'ai.generateText.doGenerate',
          'ai.model.id': 'm',
          'ai.prompt.messages': '[]',
          'ai.response.text': '',
          'ai.response.toolCalls': '[{"toolName":"search"}]',
        }),
      ],
      'ai',
    );
    expect(store.getObservation('root000000000001')).toMatchObject({ input: '{"prompt":"q?"}', output: 'the answer' });
    expect(store.getObservation('tool000000000002')).toMatchObject({
      type: 'TOOL',
      name: 'search',
      input: '{"query":"q"}',
      output: '[{"content":"doc"}]',
    });
    expect(JSON.parse(String(store.getObservation('gen0000000000003')?.output))).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: '[{"toolName":"search"}]',
    });
    const other = new LangfuseStore({ personality: 'v3' });
    ingest(
      other,
      [span('root000000000001', { 'ai.prompt': '{"prompt":"q?"}', 'ai.response.text': 'x' })],
      'some-other-scope',
    );
    expect(other.getObservation('root000000000001')).toMatchObject({ input: null, output: null });
  });
});
