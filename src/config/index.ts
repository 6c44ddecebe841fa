/** The public surface of src/config/ for other folders: imports from outside go through this file. */
export { HUMAN_SCORE_PREFIX, type CalibrateConfig } from './calibrate-section.js';
export { loadConfig } from './load.js';
export { maskSecrets } from './mask.js';
export { configInEffect } from './in-effect.js';
export { configSchema, type RagwatchConfig } from './schema.js';
