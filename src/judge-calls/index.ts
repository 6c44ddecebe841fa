export { recordingJudge, type JudgeCallRecord } from './record.js';
export { JUDGE_TRACE_NAME, type JudgeTraceOptions } from './shape.js';
export { judgeTraceEvents } from './events.js';
export { judgeTraceSpans } from './spans.js';
export { createJudgeCallTracer, type JudgeCallTracer, type JudgeCallTracerDeps } from './tracer.js';
