/** What a judge call trace holds, whichever way it reaches Langfuse (ingestion events or OTLP spans). */
import type { JudgeCallRecord } from './record.js';

export const JUDGE_TRACE_NAME = 'ragwatch-judge';

export interface JudgeTraceOptions {
  /** ragwatch's own environment (`langfuse.ownEnvironment`). */
  environment: string;
  /**
   * Whether prompts and answers are written. Off when anonymization is off: the texts were not anonymized,
   * so only names, tokens and latency go to Langfuse.
   */
  includeTexts: boolean;
  modelParameters?: Record<string, string | number | boolean>;
}

export interface JudgeTraceInput {
  /** The trace's id (32 hex digits: an OTLP trace id too). */
  executionTraceId: string;
  /** The trace whose scores the calls produced. */
  evaluatedTraceId: string;
  calls: readonly JudgeCallRecord[];
}

export function traceMetadata(input: JudgeTraceInput, options: JudgeTraceOptions): Record<string, string | number> {
  return {
    source: 'ragwatch',
    evaluatedTraceId: input.evaluatedTraceId,
    calls: input.calls.length,
    ...(options.includeTexts ? {} : { textsOmitted: 'anonymize.enabled is false' }),
  };
}

export const callEnd = (call: JudgeCallRecord) => call.endedAt ?? call.startedAt;

export function usageDetails(call: JudgeCallRecord): Record<string, number> | undefined {
  const u = call.usage;
  return u
    ? { input: u.promptTokens, output: u.completionTokens, total: u.promptTokens + u.completionTokens }
    : undefined;
}

export function callMetadata(call: JudgeCallRecord): Record<string, string | number> {
  return {
    source: 'ragwatch',
    attempts: call.usage?.calls ?? 0,
    latencyMs: call.usage?.latencyMs ?? callEnd(call) - call.startedAt,
  };
}

/** The error as the observation's status: only its kind when texts are left out. */
export function statusMessage(call: JudgeCallRecord, options: JudgeTraceOptions): string | undefined {
  if (!call.error) return undefined;
  return options.includeTexts ? `${call.error.kind}: ${call.error.message}`.slice(0, 500) : call.error.kind;
}
