import { afterEach, describe, expect, it } from 'vitest';
import { propagateAttributes, startActiveObservation, startObservation } from '@langfuse/tracing';
import { startHarness, tracingTo, type Harness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function traceRagAnswer(h: Harness): Promise<{ traceId: string; rootId: string }> {
  const provider = tracingTo(h.server, 'production');
  let ids = { traceId: '', rootId: '' };
  await startActiveObservation('rag-answer', async (root) => {
    await propagateAttributes(
      {
        traceName: 'rag-answer',
        userId: 'user-7',
        sessionId: 'session-1',
        tags: ['rag', 'es'],
        metadata: { channel: 'web' },
      },
      async () => {
        root.setTraceIO({ input: { question: '¿Cuál es el plazo de devolución?' } });
        root.update({ input: { question: '¿Cuál es el plazo de devolución?' } });
        const retriever = root.startObservation(
          'retrieve',
          { input: { query: 'plazo devolución' } },
          { asType: 'retriever' },
        );
        retriever
          .update({ output: [{ pageContent: 'Devoluciones en 30 días', metadata: { source: 'faq.md' } }] })
          .end();
        const generation = root.startObservation(
          'answer',
          {
            model: 'gpt-4o-mini',
            input: [{ role: 'user', content: '¿Cuál es el plazo?' }],
            usageDetails: { input: 120, output: 30 },
            modelParameters: { temperature: 0 },
          },
          { asType: 'generation' },
        );
        generation.update({ output: { role: 'assistant', content: 'Tienes 30 días.' } }).end();
        root.update({ output: 'Tienes 30 días.' });
        root.setTraceIO({ output: 'Tienes 30 días.' });
        ids = { traceId: root.traceId, rootId: root.id };
      },
    );
  });
  await provider.forceFlush();
  await provider.shutdown();
  return ids;
}

describe('devkit Langfuse: spans from @langfuse/tracing', () => {
  it('lands a traced RAG answer as a v3 trace with full observations', async () => {
    harness = await startHarness({ personality: 'v3' });
    const { traceId, rootId } = await traceRagAnswer(harness);

    const list = await harness.client.api.trace.list({ limit: 10 });
    expect(list.data.map((t) => t.id)).toEqual([traceId]);
    expect(list.meta).toEqual({ page: 1, limit: 10, totalItems: 1, totalPages: 1 });

    const trace = await harness.client.api.trace.get(traceId);
    expect(trace.name).toBe('rag-answer');
    expect(trace.userId).toBe('user-7');
    expect(trace.sessionId).toBe('session-1');
    expect(trace.tags.sort()).toEqual(['es', 'rag']);
    expect(trace.environment).toBe('production');
    expect(trace.input).toEqual({ question: '¿Cuál es el plazo de devolución?' });
    expect(trace.output).toBe('Tienes 30 días.');
    expect(trace.metadata).toMatchObject({ channel: 'web' });
    const byName = Object.fromEntries(trace.observations.map((o) => [o.name, o]));
    expect(byName.retrieve?.type).toBe('RETRIEVER');
    expect(byName.retrieve?.parentObservationId).toBe(rootId);
    expect(byName.retrieve?.output).toEqual([
      { pageContent: 'Devoluciones en 30 días', metadata: { source: 'faq.md' } },
    ]);
    expect(byName.answer?.type).toBe('GENERATION');
    expect(byName.answer?.model).toBe('gpt-4o-mini');
    expect(byName.answer?.usageDetails).toEqual({ input: 120, output: 30, total: 150 });
    expect(byName['rag-answer']?.parentObservationId).toBeNull();
    expect(harness.violations).toEqual([]);
  });

  it('serves the same spans through v2 observations with raw-string io on v4', async () => {
    harness = await startHarness({ personality: 'v4' });
    const { traceId, rootId } = await traceRagAnswer(harness);

    const roots = await harness.client.api.observations.getMany({
      traceId,
      isRootObservation: true,
      fields: 'core,basic,io',
    });
    expect(roots.data).toHaveLength(1);
    expect(roots.data[0]?.id).toBe(rootId);
    expect(roots.data[0]?.input).toBe(JSON.stringify({ question: '¿Cuál es el plazo de devolución?' }));
    expect(roots.data[0]?.output).toBe('Tienes 30 días.');
    expect(roots.data[0]?.userId).toBe('user-7');

    const all = await harness.client.api.observations.getMany({
      traceId,
      fields: 'core,basic,io,model,usage,trace_context',
    });
    expect(all.data).toHaveLength(3);
    const answer = all.data.find((o) => o.name === 'answer');
    expect(answer?.type).toBe('GENERATION');
    expect((answer as Record<string, unknown> | undefined)?.providedModelName).toBe('gpt-4o-mini'); // spec name; the SDK type says `model`
    expect(answer?.usageDetails).toEqual({ input: 120, output: 30, total: 150 });
    expect(answer?.traceName).toBe('rag-answer');
    expect(typeof answer?.input).toBe('string');

    await expect(harness.client.api.trace.list({}, { maxRetries: 0 })).rejects.toMatchObject({ statusCode: 404 });
    expect(harness.violations).toEqual([]);
  });

  it('nests a manually started observation and honours startObservation without an active parent', async () => {
    harness = await startHarness({ personality: 'v3' });
    const provider = tracingTo(harness.server);
    const span = startObservation('standalone', { input: 'hola' });
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
    const trace = harness.server.store.getTrace(span.traceId);
    expect(trace?.name).toBe('standalone');
    expect(trace?.input).toBe('hola');
    expect(harness.server.store.getObservation(span.id)?.type).toBe('SPAN');
    expect(harness.violations).toEqual([]);
  });
});
