import { propagateAttributes, startObservation, type LangfuseObservation } from '@langfuse/tracing';
import type { DemoDocument, DemoGenerationStep, DemoTrace } from '../model.js';

/** LangChain's `Document` as it serialises: the retriever score is not part of it. */
export function langchainDocument(doc: DemoDocument): { pageContent: string; metadata: DemoDocument['metadata'] } {
  return { pageContent: doc.pageContent, metadata: doc.metadata };
}

/** A point `fraction` of the way from `a` to `b`. */
export function at(a: Date, b: Date, fraction: number): Date {
  return new Date(Math.round(a.getTime() + (b.getTime() - a.getTime()) * fraction));
}

export function plus(d: Date, ms: number): Date {
  return new Date(d.getTime() + ms);
}

export type ObservationType = 'span' | 'generation' | 'retriever' | 'tool' | 'agent' | 'chain';

/** Opens an observation at a given time under an explicit parent, the way the LangChain handler does. */
export function open(
  name: string,
  parent: LangfuseObservation | undefined,
  startTime: Date,
  attributes: Record<string, unknown>,
  asType: ObservationType = 'span',
): LangfuseObservation {
  const options = { startTime, ...(parent ? { parentSpanContext: parent.otelSpan.spanContext() } : {}) };
  // The overloads of startObservation are keyed on literal asType values; the union is handled at run time.
  return (startObservation as (n: string, a: unknown, o: unknown) => LangfuseObservation)(name, attributes, {
    ...options,
    asType,
  });
}

/** Sets final attributes and ends an observation at `endTime`. */
export function close(observation: LangfuseObservation, endTime: Date, attributes: Record<string, unknown> = {}): void {
  if (Object.keys(attributes).length > 0)
    (observation as { update(a: Record<string, unknown>): unknown }).update(attributes);
  observation.end(endTime);
}

/** Trace-level attributes an application sets once per request with `propagateAttributes`. */
export function withTraceAttributes<T>(
  trace: DemoTrace,
  options: { traceName?: boolean; identity?: boolean },
  fn: () => T,
): T {
  return propagateAttributes(
    {
      ...(options.identity !== false ? { userId: trace.userId, sessionId: trace.sessionId, tags: trace.tags } : {}),
      ...(options.traceName ? { traceName: trace.name } : {}),
      ...(trace.environment ? { environment: trace.environment } : {}),
    },
    fn,
  );
}

/** Usage details as Langfuse SDK integrations report them. */
export function usageDetails(step: DemoGenerationStep): Record<string, number> {
  return { input: step.usage.input, output: step.usage.output, total: step.usage.total };
}

export function answerStep(trace: DemoTrace): DemoGenerationStep {
  const steps = trace.steps.filter((s): s is DemoGenerationStep => s.kind === 'generation');
  const last = steps[steps.length - 1];
  if (!last) throw new Error(`demo trace ${trace.id} has no generation`);
  return last;
}
