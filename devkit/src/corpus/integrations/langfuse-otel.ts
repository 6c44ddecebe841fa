import { LangfuseSpanProcessor, type ShouldExportSpan } from '@langfuse/otel';
import { getLangfuseTracerProvider, setLangfuseTracerProvider } from '@langfuse/tracing';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ensureContextManager } from '../emit/otel-pipeline.js';
import type { LangfuseTarget } from './types.js';

/**
 * The tracing setup Langfuse's JS guides give: a `NodeTracerProvider` with `@langfuse/otel`'s
 * `LangfuseSpanProcessor` (OTLP/JSON to `/api/public/otel`). It is handed to `@langfuse/tracing` (what
 * `@langfuse/openai` and `@langfuse/langchain` record with) and to whatever else the app instruments,
 * instead of being registered globally, so several integrations can take turns in one process.
 */
export function startLangfuseOtel(target: LangfuseTarget, options: { shouldExportSpan?: ShouldExportSpan } = {}) {
  ensureContextManager();
  const processor = new LangfuseSpanProcessor({
    baseUrl: target.baseUrl,
    publicKey: target.publicKey,
    secretKey: target.secretKey,
    mediaUploadEnabled: false,
    ...(options.shouldExportSpan ? { shouldExportSpan: options.shouldExportSpan } : {}),
  });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  const previous = getLangfuseTracerProvider();
  setLangfuseTracerProvider(provider);
  return {
    provider,
    flush: () => provider.forceFlush(),
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        setLangfuseTracerProvider(previous === trace.getTracerProvider() ? null : previous);
      }
    },
  };
}
