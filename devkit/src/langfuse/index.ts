/**
 * A local stand-in for a Langfuse server, for tests and the demo: real HTTP on loopback, the public API routes
 * ragwatch uses, in a v3 or v4 (`events_only`) personality, with fault knobs. It is not Langfuse: it keeps
 * everything in memory (optionally a JSON file) and implements what the routes need, following Langfuse's source.
 *
 *   const lf = await startLangfuseServer({ personality: 'v4', now: () => clock });
 *   lf.store.upsertTrace({ id: 't1', name: 'qa', input: { question: '…' } });
 *   lf.faults.set('GET /api/public/v2/observations', { failNext: 2, errorStatus: 429 });
 *   …
 *   await lf.close();
 */
export { startLangfuseServer, type Exchange, type LangfuseServer, type LangfuseServerOptions } from './server.js';
export {
  LangfuseStore,
  type StoreOptions,
  type StoreSnapshot,
  type TraceInput,
  type ObservationInput,
  type ScoreInput,
} from './store.js';
export type { ExperimentRun } from './experiment-runs.js';
export { Faults, seededRandom, type FaultKnobs, type FaultDecision } from './faults.js';
export { StoreError, type DatasetInput, type DatasetItemInput, type RunItemInput } from './dataset-table.js';
export { loadStore, saveStore } from './persist.js';
export { stableExperimentId } from './routes/datasets.js';
export type * from './types.js';
