/**
 * The record stage: the finished items as a dataset run in Langfuse, traces first, then the run items linking
 * them (see `run-recorder.ts`). An incomplete run is recorded too, marked `incomplete: true`; nothing is
 * recorded when Langfuse itself is what stopped the run.
 */
import type { LangfuseHttp, ApiGeneration } from '../langfuse/index.js';
import type { ItemSelection } from './items.js';
import { createRunRecorder, type ItemToRecord, type RecordedRun } from './run-recorder.js';
import type { CleanResult } from './passes.js';
import type { RunPlan } from './plan.js';
import type { RunStatus } from './run-status.js';

export interface RecordDeps {
  http: LangfuseHttp;
  generation: ApiGeneration;
  sleep?: (ms: number) => Promise<void>;
  newTraceId?: () => string;
  newSpanId?: () => string;
}

/** The recorded run, or null when nothing could be recorded (the status says why). */
export async function recordRun(
  deps: RecordDeps,
  plan: RunPlan,
  selection: ItemSelection,
  finished: readonly CleanResult[],
  status: RunStatus,
  signal: AbortSignal,
): Promise<RecordedRun | null> {
  if (status.stop?.dependency === 'langfuse') return null;
  const recorder = createRunRecorder({
    http: deps.http,
    generation: deps.generation,
    datasetId: selection.dataset.id,
    runName: plan.runName,
    description: `ragwatch golden-set experiment (${selection.split}); report: ${plan.reportUrl}`,
    metadata: plan.metadata,
    signal,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.newTraceId ? { newTraceId: deps.newTraceId } : {}),
    ...(deps.newSpanId ? { newSpanId: deps.newSpanId } : {}),
  });
  const complete = status.complete;
  return (await status.langfuse(() => recorder.record(finished.flatMap(toRecord), { complete }))) ?? null;
}

function toRecord(c: CleanResult): ItemToRecord[] {
  if (!c.answer) return [];
  return [
    {
      item: c.item.raw,
      question: c.item.question,
      answer: c.answer.answer,
      contexts: c.answer.contexts,
      serviceTraceId: c.answer.traceId,
      startMs: c.startMs,
      endMs: c.endMs,
    },
  ];
}
