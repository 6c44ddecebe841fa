/**
 * The benches' RAG traces in the Langfuse stand-in: trace `i` asks a demo golden-set question, retrieves its
 * source chunks and answers with the reference (a root span, a retriever and a generation), at `timeOf(i)`.
 */
import { chunkById, goldenItems } from '@ragwatch/devkit/corpus/index.js';
import type { LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';

export function seedRagTraces(lf: LangfuseServer, count: number, timeOf: (i: number) => number): void {
  const items = goldenItems().filter((i) => i.sources.length > 0);
  for (let i = 0; i < count; i++) {
    const item = items[i % items.length]!;
    const id = `rag${String(i).padStart(29, '0')}`;
    const at = timeOf(i);
    const contexts = item.sources.map((s) => chunkById(s).text);
    const question = `${item.question} (#${i})`;
    lf.store.upsertTrace({
      id,
      timestamp: at,
      name: 'support-rag',
      input: question,
      output: item.reference,
      environment: 'production',
    });
    lf.store.upsertObservation({
      id: `${id}-r`,
      traceId: id,
      type: 'SPAN',
      name: 'support-rag',
      startTime: at,
      endTime: at + 2000,
      input: question,
      output: item.reference,
    });
    lf.store.upsertObservation({
      id: `${id}-k`,
      traceId: id,
      type: 'RETRIEVER',
      name: 'kb',
      parentObservationId: `${id}-r`,
      startTime: at + 10,
      endTime: at + 200,
      input: question,
      output: contexts.map((pageContent) => ({ pageContent })),
    });
    lf.store.upsertObservation({
      id: `${id}-g`,
      traceId: id,
      type: 'GENERATION',
      name: 'answer',
      parentObservationId: `${id}-r`,
      startTime: at + 300,
      endTime: at + 1900,
      input: [{ role: 'user', content: question }],
      output: { role: 'assistant', content: item.reference },
    });
  }
}
