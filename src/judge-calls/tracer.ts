/**
 * `judge.traceCalls`: the judge calls of one evaluation become one Langfuse trace of generations, under
 * ragwatch's own environment (which the online job never samples), like the execution traces Langfuse's own
 * evaluators write; the score's metadata links to it (`executionTraceId`). Only what the judge was sent goes
 * there: anonymized text, tokens, latency. v3 takes ingestion events, v4 OTLP spans.
 */
import {
  type ApiGeneration,
  exportSpans,
  type LangfuseHttp,
  postIngestion,
  randomTraceId,
  SpansRejectedError,
} from '../langfuse/index.js';
import type { Logger } from '../runtime/index.js';
import { judgeTraceEvents } from './events.js';
import type { JudgeCallRecord } from './record.js';
import type { JudgeTraceOptions } from './shape.js';
import { JUDGE_TRACE_SCOPE, judgeTraceSpans } from './spans.js';

export interface JudgeCallTracer {
  /**
   * Writes the calls as a trace; resolves to its id, or null when Langfuse did not take it (logged, never
   * thrown: tracing must not cost a trace its scores).
   */
  record(
    evaluation: { traceId: string; calls: readonly JudgeCallRecord[] },
    signal?: AbortSignal,
  ): Promise<string | null>;
}

export interface JudgeCallTracerDeps extends JudgeTraceOptions {
  http: LangfuseHttp;
  generation: ApiGeneration;
  logger?: Logger;
  newTraceId?: () => string;
}

export function createJudgeCallTracer(deps: JudgeCallTracerDeps): JudgeCallTracer {
  const newTraceId = deps.newTraceId ?? randomTraceId;
  const send = deps.generation === 'v3' ? sendEvents : sendSpans;
  return {
    async record({ traceId, calls }, signal) {
      if (calls.length === 0) return null;
      const executionTraceId = newTraceId();
      try {
        const rejected = await send(deps, { executionTraceId, evaluatedTraceId: traceId, calls }, signal);
        if (rejected === null) return executionTraceId;
        deps.logger?.warn(
          { traceId, rejected },
          'Langfuse did not take the judge call trace; the scores are written without the link',
        );
      } catch (err) {
        if (signal?.aborted) throw err;
        deps.logger?.warn(
          { traceId, error: (err as Error).name },
          'could not write the judge call trace; the scores are written without the link',
        );
      }
      return null;
    },
  };
}

type Send = (
  deps: JudgeCallTracerDeps,
  input: Parameters<typeof judgeTraceEvents>[0],
  signal?: AbortSignal,
) => Promise<string | null>;

/** Resolves to null when every event was taken, else to what was refused. */
const sendEvents: Send = async (deps, input, signal) => {
  const events = judgeTraceEvents(input, deps);
  const result = await postIngestion(deps.http, events, signal);
  const ok = new Set(result.successes.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.id));
  const refused = events.filter((e) => !ok.has(e.id) || result.errors.some((x) => x.id === e.id));
  if (refused.length === 0) return null;
  const first = result.errors.find((x) => x.id === refused[0]!.id);
  return `${refused.length} of ${events.length} events (first: ${first?.status ?? 'no status'})`;
};

/** Resolves to null when every span was taken, else to what was refused. */
const sendSpans: Send = async (deps, input, signal) => {
  const spans = judgeTraceSpans(input, deps);
  try {
    await exportSpans(deps.http, spans, { scope: JUDGE_TRACE_SCOPE, signal });
    return null;
  } catch (err) {
    if (err instanceof SpansRejectedError) return `${err.rejected} of ${err.total} spans`;
    throw err;
  }
};
