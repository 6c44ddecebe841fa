/** A judge call trace as ingestion events (Langfuse v3): `trace-create` plus one `generation-create` per call. */
import { randomUUID } from 'node:crypto';
import type { IngestionEvent } from '../langfuse/index.js';
import {
  callEnd,
  callMetadata,
  JUDGE_TRACE_NAME,
  statusMessage,
  traceMetadata,
  usageDetails,
  type JudgeTraceInput,
  type JudgeTraceOptions,
} from './shape.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function judgeTraceEvents(
  input: JudgeTraceInput,
  options: JudgeTraceOptions,
  newId: () => string = randomUUID,
): IngestionEvent[] {
  const start = Math.min(...input.calls.map((c) => c.startedAt));
  const texts = options.includeTexts;
  const trace: IngestionEvent = {
    id: newId(),
    type: 'trace-create',
    timestamp: iso(start),
    body: {
      id: input.executionTraceId,
      name: JUDGE_TRACE_NAME,
      timestamp: iso(start),
      environment: options.environment,
      tags: ['ragwatch'],
      metadata: traceMetadata(input, options),
    },
  };
  const generations = input.calls.map((call): IngestionEvent => {
    const usage = usageDetails(call);
    const status = statusMessage(call, options);
    return {
      id: newId(),
      type: 'generation-create',
      timestamp: iso(call.startedAt),
      body: {
        id: newId(),
        traceId: input.executionTraceId,
        name: call.name,
        environment: options.environment,
        startTime: iso(call.startedAt),
        endTime: iso(callEnd(call)),
        model: call.model,
        ...(options.modelParameters ? { modelParameters: options.modelParameters } : {}),
        ...(texts ? { input: call.messages } : {}),
        ...(texts && call.value !== undefined ? { output: call.value } : {}),
        ...(usage ? { usageDetails: usage } : {}),
        level: call.error ? 'ERROR' : 'DEFAULT',
        ...(status ? { statusMessage: status } : {}),
        metadata: callMetadata(call),
      },
    };
  });
  return [trace, ...generations];
}
