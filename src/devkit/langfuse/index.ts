export { startLangfuseServer, type Exchange, type LangfuseServer, type LangfuseServerOptions } from './server.js';
export { LangfuseStore, type StoreOptions, type StoreSnapshot, type TraceInput, type ObservationInput, type ScoreInput } from './store.js';
export { Faults, seededRandom, type FaultKnobs } from './faults.js';
export { StoreError, type DatasetInput, type DatasetItemInput, type RunItemInput } from './dataset-table.js';
export { loadStore, saveStore } from './persist.js';
export { stableExperimentId } from './routes/datasets.js';
export type * from './types.js';
