import type { ExperimentHistory, JobRuns, Leases, Ledger, ReportArchive, StateFacts, StateStore } from './roles.js';
import { ROLE_METHODS, WRITE_METHODS } from './roles.js';
import { isStateError, type StateError } from './errors.js';
import type { StateHealth } from './types.js';

/** What a backend implements: one object per role. */
export interface StoreRoles {
  ledger: Ledger;
  leases: Leases;
  jobRuns: JobRuns;
  history: ExperimentHistory;
  reports: ReportArchive;
  facts: StateFacts;
}

export interface StoreConnection {
  readonly location: string;
  readonly shared: boolean;
  ping(): Promise<boolean>;
  /** The backend's own health; `lastWriteError` is the last write that failed, until one goes through. */
  health(lastWriteError: StateError | null): Promise<StateHealth>;
  close(): Promise<void>;
}

/**
 * One store from a backend's roles. Every read and write turns the backend's errors into `StateError`s
 * (`convert`), and a failed write is remembered for `health()` until a write goes through again (on a full
 * disk updates in place can succeed while inserts fail, so the daemon also keeps a failed run's state error
 * until a whole run gets through: `DependencyHealth`).
 */
export function composeStore(
  roles: StoreRoles,
  connection: StoreConnection,
  convert: (err: unknown) => unknown,
): StateStore {
  let lastWriteError: StateError | null = null;
  const store: Record<string, unknown> = {};
  for (const [role, methods] of Object.entries(ROLE_METHODS) as [keyof StoreRoles, readonly string[]][]) {
    const target = roles[role] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const name of methods) {
      const method = target[name];
      if (typeof method !== 'function') throw new Error(`state backend: ${role}.${name} is missing`);
      const write = WRITE_METHODS.has(name);
      store[name] = async (...args: unknown[]) => {
        try {
          const out = await method.apply(target, args);
          if (write) lastWriteError = null;
          return out;
        } catch (err) {
          const converted = convert(err);
          if (write && isStateError(converted)) lastWriteError = converted;
          throw converted;
        }
      };
    }
  }
  Object.defineProperty(store, 'location', { value: connection.location, enumerable: true });
  Object.defineProperty(store, 'shared', { value: connection.shared, enumerable: true });
  store.ping = () => connection.ping();
  store.health = () => connection.health(lastWriteError);
  store.close = () => connection.close();
  return store as unknown as StateStore;
}
