/** The public surface of src/state/postgres/ for other folders: imports from outside go through this file. */
export { asPostgresStateError } from './errors.js';
export { openPostgresState } from './open.js';
export { openPostgresReadOnly, probePostgres } from './read-only.js';
