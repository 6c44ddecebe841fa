/** The public surface of src/config/ for other folders: imports from outside go through this file. */
export { HUMAN_SCORE_PREFIX, type CalibrateConfig } from './calibrate-section.js';
export { loadConfig, parseConfig, type LoadedConfig, type LoadOptions } from './load.js';
export { maskSecrets } from './mask.js';
export { EXPERIMENT_ITEM_HEADER, EXPERIMENT_RUN_HEADER, EXPERIMENT_TRAFFIC_TAG } from './experiment-traffic.js';
export { configInEffect } from './in-effect.js';
export { configSchemaFor, type RagwatchConfig } from './schema.js';
export type { MetricCatalog, MetricFacts, MetricJob } from './metric-catalog.js';
