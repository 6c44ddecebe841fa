import { randomBytes } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { getLangfuseTracerProvider, setLangfuseTracerProvider } from '@langfuse/tracing';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { hexId } from '../random.js';
import { RetimingSpanProcessor } from './retime.js';

/**
 * Trace ids chosen by the demo (so a generated trace lands under its known id) and span ids derived from
 * them, so the same seed yields the same ids on every run.
 */
export class DemoIdGenerator implements IdGenerator {
  private traceId: string | undefined;
  private counter = 0;

  /** The next span opened without a parent starts trace `traceId`. */
  beginTrace(traceId: string): void {
    this.traceId = traceId;
    this.counter = 0;
  }

  generateTraceId(): string {
    return this.traceId ?? randomBytes(16).toString('hex');
  }

  generateSpanId(): string {
    if (!this.traceId) return randomBytes(8).toString('hex');
    return hexId(16, this.traceId, 'span', this.counter++);
  }
}

let contextManagerChecked = false;

/**
 * `startActiveObservation` and `propagateAttributes` need an OpenTelemetry context manager. Register the
 * AsyncLocalStorage one unless the process already has one (then that one is used).
 */
export function ensureContextManager(): void {
  if (contextManagerChecked) return;
  contextManagerChecked = true;
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}

export interface OtelPipelineOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** Spans per OTLP request (keeps each export well below server body limits). */
  flushAt?: number;
}

export interface OtelPipeline {
  ids: DemoIdGenerator;
  retimer: RetimingSpanProcessor;
  /** Flushes every pending span to Langfuse and restores the previous Langfuse tracer provider. */
  shutdown(): Promise<void>;
}

/**
 * The tracing stack of an instrumented application, as Langfuse documents it: a `NodeTracerProvider` with
 * the `LangfuseSpanProcessor` from `@langfuse/otel`, made the provider `@langfuse/tracing` (and the
 * wrappers built on it) use. It is not registered as the global OpenTelemetry provider.
 */
export function startOtelPipeline(options: OtelPipelineOptions): OtelPipeline {
  ensureContextManager();
  const processor = new LangfuseSpanProcessor({
    baseUrl: options.baseUrl,
    publicKey: options.publicKey,
    secretKey: options.secretKey,
    flushAt: options.flushAt ?? 64,
    flushInterval: 1,
    mediaUploadEnabled: false,
  });
  const retimer = new RetimingSpanProcessor(processor);
  const ids = new DemoIdGenerator();
  const provider = new NodeTracerProvider({ idGenerator: ids, spanProcessors: [retimer] });
  const previous = getLangfuseTracerProvider();
  setLangfuseTracerProvider(provider);
  return {
    ids,
    retimer,
    async shutdown() {
      try {
        await provider.forceFlush();
        await provider.shutdown();
      } finally {
        setLangfuseTracerProvider(previous === trace.getTracerProvider() ? null : previous);
      }
    },
  };
}
