import { propagateAttributes, startActiveObservation, type LangfuseObservation } from '@langfuse/tracing';
import type { DemoGenerationStep, DemoRetrievalStep, DemoTrace } from '../model.js';
import { close, usageDetails } from './common.js';

/**
 * Hand-instrumented applications using `@langfuse/tracing` directly (`startActiveObservation` with
 * `asType`), in three styles seen in the wild:
 * - `tracing-root-io`: trace input/output set explicitly on the root (`setTraceIO`), a `retriever`
 *   observation returning `{id, content, score, source}` objects and a `generation`;
 * - `tracing-inner-io`: nothing on the root; the question only reaches the retriever and the
 *   generation's messages, the answer only the generation's output, contexts as plain strings;
 * - `tracing-agent`: an `agent` root calling a knowledge-base `tool`, then a `generation`.
 */
export async function emitTracingTrace(trace: DemoTrace): Promise<void> {
  const body = async (root: LangfuseObservation): Promise<void> => {
    await propagateAttributes(
      {
        userId: trace.userId,
        sessionId: trace.sessionId,
        tags: trace.tags,
        traceName: trace.name,
        ...(trace.environment ? { environment: trace.environment } : {}),
      },
      async () => {
        if (trace.variant === 'tracing-root-io') {
          update(root, {
            input: { question: trace.question, language: trace.language },
            metadata: { channel: 'web-chat' },
          });
          root.setTraceIO({ input: trace.question, output: trace.answer });
        } else if (trace.variant === 'tracing-agent') {
          update(root, { input: { messages: [{ role: 'user', content: trace.question }] } });
        } else {
          update(root, { metadata: { channel: 'whatsapp', language: trace.language } });
        }
        for (const step of trace.steps) {
          if (step.kind === 'retrieval') await retrieval(trace, step);
          else await generation(trace, step);
        }
      },
    );
    const output =
      trace.variant === 'tracing-root-io'
        ? { answer: trace.answer }
        : trace.variant === 'tracing-agent'
          ? { output: trace.answer }
          : undefined;
    close(root, trace.endTime, output ? { output } : {});
  };
  const options = { startTime: trace.startTime, endOnExit: false };
  if (trace.variant === 'tracing-agent')
    await startActiveObservation(trace.name, body, { ...options, asType: 'agent' });
  else await startActiveObservation(trace.name, body, options);
}

function update(observation: LangfuseObservation, attributes: Record<string, unknown>): void {
  (observation as { update(a: Record<string, unknown>): unknown }).update(attributes);
}

function retrieval(trace: DemoTrace, step: DemoRetrievalStep): Promise<void> {
  const kb = step.index === 'knowledge-base';
  if (trace.variant === 'tracing-agent') {
    return startActiveObservation(
      kb ? 'search_knowledge_base' : 'lookup_customer',
      async (tool) => {
        tool.update({
          input: kb ? { query: step.query, k: step.topK } : { customer_id: step.query },
          output: {
            results: step.documents.map((d) => ({ chunk_id: d.metadata.chunkId, text: d.pageContent, score: d.score })),
          },
        });
        tool.end(step.endTime);
      },
      { asType: 'tool', startTime: step.startTime, endOnExit: false },
    );
  }
  const inner = trace.variant === 'tracing-inner-io';
  return startActiveObservation(
    kb ? (inner ? 'vector-search' : 'retrieve') : 'customer-history',
    async (retriever) => {
      retriever.update({
        input: inner ? step.query : { query: step.query, topK: step.topK },
        output: inner
          ? step.documents.map((d) => d.pageContent)
          : step.documents.map((d) => ({
              id: d.metadata.chunkId,
              content: d.pageContent,
              score: d.score,
              source: d.metadata.source,
            })),
        metadata: { index: step.index, hits: step.documents.length },
      });
      retriever.end(step.endTime);
    },
    { asType: 'retriever', startTime: step.startTime, endOnExit: false },
  );
}

function generation(trace: DemoTrace, step: DemoGenerationStep): Promise<void> {
  const name =
    step.purpose === 'answer' ? (trace.variant === 'tracing-agent' ? 'agent-llm' : 'llm-answer') : step.purpose;
  return startActiveObservation(
    name,
    async (gen) => {
      gen.update({
        input: step.messages,
        output: trace.variant === 'tracing-inner-io' ? step.output : { role: 'assistant', content: step.output },
        model: step.responseModel,
        modelParameters: { temperature: step.temperature, ...(step.maxTokens ? { max_tokens: step.maxTokens } : {}) },
        usageDetails: usageDetails(step),
        completionStartTime: new Date(
          step.startTime.getTime() + Math.round((step.endTime.getTime() - step.startTime.getTime()) * 0.25),
        ),
      });
      gen.end(step.endTime);
    },
    { asType: 'generation', startTime: step.startTime, endOnExit: false },
  );
}
