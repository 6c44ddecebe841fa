/** The public surface of src/online/ for other folders: imports from outside go through this file. */
export { formatOneTrace, oneTraceJson } from './explain.js';
export { isCredentialsCode } from './failures.js';
export { formatPlan, formatTickReport, outcomeReason, planCountsHelp } from './format.js';
export { BACKFILL_JOB, ONLINE_JOB, runBackfill, runOnlineTick, type RunProgress, type TickReport } from './job.js';
export { scoreOneTrace } from './one-trace.js';
export { planOnlineTick } from './plan.js';
export type { Clock, OnlineRecorder, SampleAnonymizer } from './ports.js';
export { createOnlineRuntime, processLeaseHolder, type OnlineRuntime } from './runtime.js';
export { rateWarnings, samplingPolicyFrom } from './sampler.js';
