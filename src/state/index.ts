import type { RagwatchConfig } from '../config/schema.js';
import { openSqliteState } from './sqlite.js';
import type { StateStore } from './types.js';

export type * from './types.js';
export { LEDGER_STATUSES } from './types.js';
export { openSqliteState, type SqliteStateOptions } from './sqlite.js';
export { openSqliteGoldenStore, sqliteGoldenStore, type SqliteGoldenStore } from './golden-builds.js';

/** Opens the state store the configuration names (the embedded SQLite file). */
export function openState(config: Pick<RagwatchConfig, 'state'>, options: { isProcessAlive?: (pid: number) => boolean } = {}): StateStore {
  return openSqliteState({ path: config.state.path, ...options });
}
