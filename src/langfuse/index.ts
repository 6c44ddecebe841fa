/**
 * The public surface of src/langfuse/, the one Langfuse client: a small core (core/: auth, transport, retries,
 * shape checks, API generation) and one file per resource (resources/). Imports from outside go through this file.
 */
export * from './core/types.js';
export * from './core/http.js';
export * from './core/filters.js';
export * from './core/normalize.js';
export { detectApiGeneration, type GenerationSetting } from './core/detect.js';
export { TraceReadBudget, type ReadCut, type ReadLimits } from './core/read-budget.js';
export { listTraces, getTrace, type ListTracesOptions } from './resources/trace-reads.js';
export { listTracesV3, getTraceV3, traceExists, traceFromV3, V3_MAX_PAGE_SIZE } from './resources/traces.js';
export { listTracesV4, getTraceV4, traceFromObservationsV2, V4_MAX_PAGE_SIZE } from './resources/observations.js';
export * from './resources/ingestion.js';
export * from './resources/scores.js';
export * from './resources/score-configs.js';
export { presentScoreIds } from './resources/score-presence.js';
export * from './resources/datasets.js';
export * from './resources/dataset-runs.js';
export * from './resources/annotation-queues.js';
export * from './resources/annotation-scores.js';
export * from './resources/otlp.js';
export * from './resources/experiment-items.js';
export { writeTraces } from './resources/trace-writes.js';
export * from './client.js';
