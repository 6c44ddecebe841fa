import type { RagwatchConfig } from '../config/index.js';
import type { GoldenBuildStore } from './golden-records.js';
import { openSqliteGoldenStore } from './golden-builds.js';
import { openSqliteState } from './sqlite.js';
import type { StateStore } from './types.js';

export type * from './types.js';
export type * from './golden-records.js';
export { LEDGER_STATUSES } from './types.js';
export { openSqliteState, type SqliteStateOptions, defaultIsProcessAlive } from './sqlite.js';
export { openSqliteGoldenStore, sqliteGoldenStore, type SqliteGoldenStore } from './golden-builds.js';
export { LeaseKeeper, type LeaseTimers, type LeaseLoss } from './lease-keeper.js';
export { isStateError, StateError, type StateErrorKind } from './errors.js';
export { copySqliteToPostgres, liveLease, type TableCopy } from './copy-to-postgres.js';
export { isPostgresUrl, maskPostgresUrl, withoutPassword } from './postgres/url.js';
export { schemaNameProblem } from './postgres/schema-name.js';
export { recordLangfuseApi } from './queries/langfuse-api.js';
export { recordDaemon, type DaemonRecord } from './queries/daemon-record.js';
export { DAY_BASES, deadEntries, type DayBasis } from './queries/ledger.js';
export { openStateReadOnly, type ReadOnlyState } from './queries/read-only.js';
export { buildStatusReport, type JobDescriptor, type JobStatus, type StatusReport } from './queries/status-report.js';
export { shortDuration, textTable, timeFromNow, utcTime } from './queries/text-table.js';

export type StateConfig = Pick<RagwatchConfig, 'state'>;

/** What the configuration names: a PostgreSQL server (`state.url`) or the embedded SQLite file (`state.path`). */
export function stateBackend(config: StateConfig): 'postgres' | 'sqlite' {
  return config.state.url ? 'postgres' : 'sqlite';
}

/**
 * Opens the state store the configuration names. PostgreSQL's driver is loaded only when `state.url` is set,
 * so an SQLite installation never loads it.
 */
export async function openState(
  config: StateConfig,
  options: { isProcessAlive?: (pid: number) => boolean } = {},
): Promise<StateStore> {
  if (config.state.url) {
    const { openPostgresState } = await import('./postgres/open.js');
    return openPostgresState({ ...postgresOptions(config), ...options });
  }
  return openSqliteState({ path: config.state.path, ...options });
}

/** The golden-set builder's state on the configured backend (its own connection; close it when done). */
export async function openGoldenStore(
  config: StateConfig,
): Promise<GoldenBuildStore & { close(): Promise<void> | void }> {
  if (config.state.url) {
    const { openPostgresState } = await import('./postgres/open.js');
    const state = await openPostgresState(postgresOptions(config));
    return Object.assign(state.golden(), { close: () => state.close() });
  }
  return openSqliteGoldenStore({ path: config.state.path });
}

function postgresOptions(config: StateConfig) {
  const s = config.state;
  return {
    url: s.url!,
    schema: s.schema,
    poolSize: s.poolSize,
    statementTimeoutMs: s.statementTimeoutMs,
    connectTimeoutMs: s.connectTimeoutMs,
    tls: s.tls,
  };
}
