import { LangfuseClient } from '@langfuse/client';
import type { DemoShape, DemoTrace } from '../model.js';
import { emitIngestionTraces } from './ingestion.js';
import { emitLangChainTrace } from './langchain.js';
import { emitOpenAITrace } from './openai.js';
import { startOtelPipeline } from './otel-pipeline.js';
import { startScriptedLlmServer } from './scripted-llm.js';
import { emitTracingTrace } from './tracing.js';

export type Personality = 'v3' | 'v4';

export interface EmitDemoTracesOptions {
  langfuseUrl: string;
  publicKey: string;
  secretKey: string;
  /** v4 servers reject trace/observation ingestion events, so legacy-shaped traces are not sent there. */
  personality: Personality;
}

export interface EmitOutcome {
  emitted: DemoTrace[];
  skipped: Array<{ id: string; shape: DemoShape; reason: string }>;
  ingestionErrors: Array<{ id: string; traceId: string; status: number; message?: string }>;
}

// @langfuse/tracing keeps its tracer provider in process-global state: one emission at a time.
let queue: Promise<unknown> = Promise.resolve();

function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

/** Sends demo traces to a Langfuse server through the real SDKs, each in its integration's shape. */
export function emitDemoTraces(traces: DemoTrace[], options: EmitDemoTracesOptions): Promise<EmitOutcome> {
  return exclusive(async () => {
    const outcome: EmitOutcome = { emitted: [], skipped: [], ingestionErrors: [] };
    const legacy = traces.filter((t) => t.shape === 'ingestion');
    const otel = traces.filter((t) => t.shape !== 'ingestion');
    const baseUrl = options.langfuseUrl.replace(/\/+$/, '');

    if (otel.length > 0) {
      const pipeline = startOtelPipeline({ baseUrl, publicKey: options.publicKey, secretKey: options.secretKey });
      const llm = await startScriptedLlmServer();
      try {
        for (const trace of otel) {
          pipeline.ids.beginTrace(trace.id);
          if (trace.shape === 'langchain') emitLangChainTrace(trace);
          else if (trace.shape === 'openai') await emitOpenAITrace(trace, { llm, retimer: pipeline.retimer });
          else await emitTracingTrace(trace);
          outcome.emitted.push(trace);
        }
      } finally {
        await llm.close();
        await pipeline.shutdown();
      }
    }

    if (legacy.length > 0) {
      if (options.personality === 'v4') {
        for (const t of legacy)
          outcome.skipped.push({ id: t.id, shape: t.shape, reason: 'v4 ingestion accepts only score-create events' });
      } else {
        const client = new LangfuseClient({ baseUrl, publicKey: options.publicKey, secretKey: options.secretKey });
        const result = await emitIngestionTraces(client, legacy);
        outcome.ingestionErrors.push(...result.errors);
        const failed = new Set(result.errors.map((e) => e.traceId));
        outcome.emitted.push(...legacy.filter((t) => !failed.has(t.id)));
      }
    }
    outcome.emitted.sort((a, b) => a.index - b.index);
    return outcome;
  });
}
