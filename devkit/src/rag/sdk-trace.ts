import { LangfuseSpanProcessor } from '@langfuse/otel';
import {
  getLangfuseTracerProvider,
  propagateAttributes,
  setLangfuseTracerProvider,
  startActiveObservation,
} from '@langfuse/tracing';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ensureContextManager } from '../corpus/emit/otel-pipeline.js';
import type { LangfuseTarget } from './trace.js';

/** What the toy RAG traces of one request: its IO, and the weekly run's mark when the request carried one. */
export interface ToyTraceInput {
  question: string;
  answer: string;
  contexts: string[];
  /** The run name of `x-ragwatch-run` (or the body's `ragwatchRun`); absent for production traffic. */
  experimentRun?: string | undefined;
}

export interface SdkTracing {
  /** Records one request as a trace through the SDK, flushed before it returns; the trace ID. */
  record(input: ToyTraceInput): Promise<string>;
  shutdown(): Promise<void>;
}

/**
 * The toy RAG instrumented as Langfuse's JS guides show: `@langfuse/otel`'s `LangfuseSpanProcessor` on a
 * `NodeTracerProvider`, observations opened with `@langfuse/tracing`. It follows ragwatch's documented contract
 * for the weekly run's traffic (docs/integrations.md) and nothing else: a request marked by the experiment gets
 * the tag `ragwatch-experiment` and its run name as metadata, through `propagateAttributes`.
 */
export function startSdkTracing(target: LangfuseTarget, environment = 'toy-rag'): SdkTracing {
  ensureContextManager();
  const processor = new LangfuseSpanProcessor({
    baseUrl: target.baseUrl,
    publicKey: target.publicKey,
    secretKey: target.secretKey,
    environment,
    mediaUploadEnabled: false,
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  const previous = getLangfuseTracerProvider();
  setLangfuseTracerProvider(provider);
  return {
    async record(input) {
      const marked = input.experimentRun !== undefined;
      const traceId = await propagateAttributes(
        {
          traceName: 'lumora-support-answer',
          ...(marked ? { tags: ['ragwatch-experiment'], metadata: { ragwatchRun: input.experimentRun! } } : {}),
        },
        () =>
          startActiveObservation('rag-answer', async (root) => {
            root.update({ input: { question: input.question }, output: { answer: input.answer } });
            root.setTraceIO({ input: { question: input.question }, output: { answer: input.answer } });
            root
              .startObservation(
                'retrieve',
                { input: { query: input.question }, output: input.contexts },
                { asType: 'retriever' },
              )
              .end();
            return root.traceId;
          }),
      );
      await provider.forceFlush();
      return traceId;
    },
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        setLangfuseTracerProvider(previous === trace.getTracerProvider() ? null : previous);
      }
    },
  };
}
