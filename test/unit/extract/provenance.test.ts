import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';

/** Which rule found each part, which source the contexts came from, and what a skip looked at. */

let seq = 0;
function obs(
  type: string,
  name: string,
  input: unknown,
  output: unknown,
  extra: Partial<ObservationRecord> = {},
): ObservationRecord {
  seq++;
  return {
    id: `o${seq}`,
    parentObservationId: null,
    type,
    name,
    startTime: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    input,
    output,
    metadata: null,
    ...extra,
  };
}
function trace(input: unknown, output: unknown, observations: ObservationRecord[]): TraceRecord {
  return {
    id: 'tr-1',
    name: 'rag',
    timestamp: '2026-01-01T00:00:00.000Z',
    environment: 'default',
    input,
    output,
    metadata: null,
    tags: [],
    observations,
  };
}
const docs = [
  { pageContent: 'Doc one.', metadata: { source: 'a.md' } },
  { pageContent: 'Doc two.', metadata: { source: 'b.md' } },
];
const chat = (system: string) =>
  obs(
    'GENERATION',
    'ChatOpenAI',
    [
      { role: 'system', content: system },
      { role: 'user', content: 'q?' },
    ],
    { role: 'assistant', content: 'a.' },
  );

describe('extraction provenance', () => {
  it('names the rule of each part; a retriever wins over the same documents in the prompt', () => {
    const r = extractRagSample(
      trace('q?', 'a.', [obs('RETRIEVER', 'kb', 'q?', docs), chat('Context:\n[1] Doc one.\n[2] Doc two.')]),
    );
    if (!r.ok) throw new Error(r.reason);
    expect(r.parts).toMatchObject({
      question: { rule: 'trace.input', source: 'trace.input' },
      answer: { rule: 'trace.output' },
      contexts: { rule: 'retriever.output', from: 'retrieval', source: 'retriever:kb' },
    });
    expect(r.sample.meta).toMatchObject({ contextsFrom: 'retrieval' });
  });

  it('a document list handed to a step (LangChain Documents into a formatter) is read before the formatted prompt', () => {
    const r = extractRagSample(
      trace({ input: 'q?' }, { output: 'a.' }, [
        obs('SPAN', 'RunnableLambda', { input: docs }, { output: 'Doc one.\n\nDoc two.' }),
        chat('Context:\nDoc one.\n\nDoc two.'),
      ]),
    );
    expect(r).toMatchObject({
      ok: true,
      sample: { contexts: ['Doc one.', 'Doc two.'] },
      parts: { contexts: { rule: 'documents.passed-along', source: 'span:RunnableLambda.input.input' } },
    });
  });

  it('contexts from the prompt record the framing', () => {
    const r = extractRagSample(
      trace(null, null, [chat('<documents><document>Doc one.</document><document>Doc two.</document></documents>')]),
    );
    expect(r).toMatchObject({
      ok: true,
      parts: {
        contexts: { rule: 'prompt', from: 'prompt', framing: 'tags', source: 'prompt:ChatOpenAI' },
        question: { rule: 'generation.prompt' },
      },
    });
  });

  it('an empty context block in the prompt is no_contexts, not not_rag', () => {
    const r = extractRagSample(trace(null, null, [chat('Answer from the documents.\n<documents>\n</documents>')]));
    expect(r).toMatchObject({ ok: false, reason: 'no_contexts' });
  });

  it('a skip says what was looked at, by observation name and never by content', () => {
    const r = extractRagSample(
      trace('Where is order 7?', 'Shipped.', [
        obs('TOOL', 'get_order_status', { id: 7 }, { status: 'shipped' }),
        chat('You help with orders.'),
      ]),
    );
    if (r.ok) throw new Error('expected a skip');
    expect(r.reason).toBe('not_rag');
    expect(r.checked).toEqual([
      'no retrieval step among 2 observation(s) (tools get_order_status returned no documents)',
      'no document list or context key passed between steps',
      'no context block in the prompt of generation:ChatOpenAI',
    ]);
    expect(JSON.stringify(r)).not.toMatch(/order 7|Shipped|orders\./);
  });
});
