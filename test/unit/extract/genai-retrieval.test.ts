import { describe, expect, it } from 'vitest';
import { extractRagSample } from '../../../src/extract/extract.js';
import type { ObservationRecord, TraceRecord } from '../../../src/langfuse/core/types.js';
import { integrationExpectations, loadIntegrationTrace } from './integration-fixtures.js';

/**
 * OpenTelemetry GenAI retrieval spans (`gen_ai.operation.name` = `retrieval`): Langfuse maps them to a
 * plain SPAN and keeps `gen_ai.retrieval.documents` only in the observation's metadata.
 */

const DOCS = [
  { id: 'kb-1', score: 0.91, content: 'Returns are accepted for 30 days after delivery.' },
  { id: 'kb-2', score: 0.84, content: 'Refunds go back to the original payment method.' },
];

function obs(id: string, extra: Partial<ObservationRecord>): ObservationRecord {
  return {
    id,
    parentObservationId: 'root',
    type: 'SPAN',
    name: id,
    startTime: `2026-01-01T00:00:0${id.length % 10}.000Z`,
    input: null,
    output: null,
    metadata: null,
    ...extra,
  };
}

function trace(retrievalMetadata: unknown): TraceRecord {
  return {
    id: 't1',
    name: 'POST /chat',
    timestamp: '2026-01-01T00:00:00.000Z',
    environment: 'default',
    input: null,
    output: null,
    metadata: null,
    tags: [],
    observations: [
      obs('root', { parentObservationId: null, name: 'POST /chat' }),
      obs('retrieval kb', { metadata: retrievalMetadata }),
      obs('chat', {
        type: 'GENERATION',
        input: [{ role: 'user', parts: [{ type: 'text', content: 'How long do I have to return an item?' }] }],
        output: [{ role: 'assistant', parts: [{ type: 'text', content: '30 days after delivery.' }] }],
      }),
    ],
  };
}

describe('GenAI retrieval spans with their documents in metadata', () => {
  it('reads gen_ai.retrieval.documents kept in metadata.attributes as a JSON string (what Langfuse stores)', () => {
    const result = extractRagSample(
      trace({
        attributes: {
          'gen_ai.operation.name': 'retrieval',
          'gen_ai.retrieval.query.text': 'return period',
          'gen_ai.retrieval.documents': JSON.stringify(DOCS),
        },
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      sample: {
        question: 'How long do I have to return an item?',
        answer: '30 days after delivery.',
        contexts: DOCS.map((d) => d.content),
      },
    });
  });

  it('reads them flattened or structured, at the top of metadata too', () => {
    const flat = {
      'gen_ai.operation.name': 'retrieval',
      'gen_ai.retrieval.documents.0.content': DOCS[0]!.content,
      'gen_ai.retrieval.documents.1.content': DOCS[1]!.content,
    };
    expect(extractRagSample(trace({ attributes: flat }))).toMatchObject({
      ok: true,
      sample: { contexts: DOCS.map((d) => d.content) },
    });
    expect(extractRagSample(trace({ 'gen_ai.retrieval.documents': DOCS }))).toMatchObject({
      ok: true,
      sample: { contexts: DOCS.map((d) => d.content) },
    });
  });

  it('a retrieval span that returned no documents is no_contexts, not not_rag', () => {
    expect(
      extractRagSample(
        trace({ attributes: { 'gen_ai.operation.name': 'retrieval', 'gen_ai.retrieval.documents': '[]' } }),
      ),
    ).toMatchObject({ ok: false, reason: 'no_contexts' });
  });

  it('the hand-instrumented OpenTelemetry app of the fixtures is read on both read paths', () => {
    for (const path of ['v3', 'v4'] as const) {
      const result = extractRagSample(loadIntegrationTrace('otel-genai', 'retrieval-documents-attribute', path));
      expect(result.ok, path).toBe(true);
    }
  });
});

describe('the online.extract mapping docs/integrations.md shows for documents kept as span attributes', () => {
  it('reads them on both read paths', () => {
    const mapping = {
      contexts: { observation: 'retrieval *', path: 'metadata.attributes["gen_ai.retrieval.documents"][*].content' },
    };
    const want = integrationExpectations('otel-genai').scenarios['retrieval-documents-attribute']!.expect;
    for (const path of ['v3', 'v4'] as const) {
      const result = extractRagSample(
        loadIntegrationTrace('otel-genai', 'retrieval-documents-attribute', path),
        mapping,
      );
      expect(result, path).toMatchObject({ ok: true, parts: { contexts: { rule: 'mapping', from: 'mapping' } } });
      expect(result.ok && result.sample.contexts, path).toEqual(want.kind === 'rag' && want.contexts);
    }
  });
});
