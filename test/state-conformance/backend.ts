import type { GoldenBuildStore } from '../../src/state/index.js';
import type { StateStore } from '../../src/state/index.js';

/**
 * What the conformance suite needs from a state backend. A backend passes when every case of `cases.ts`
 * passes on it; a third backend only needs a runner that fills this in.
 */
export interface StateBackend {
  name: string;
  /** A fresh, empty state (a new file, a new schema) that the cases below open connections to. */
  create(): Promise<BackendInstance>;
}

export interface BackendInstance {
  /** A new connection to this state. */
  /** `shared`: claims of other holders hold (PostgreSQL always; SQLite when asked, as replicas' tests do). */
  open(options?: {
    isProcessAlive?: (pid: number) => boolean;
    attemptRetentionMs?: number;
    shared?: boolean;
  }): Promise<StateStore>;
  /** The golden-set builder's store on this state. */
  golden(): Promise<GoldenBuildStore & { close(): void | Promise<void> }>;
  /**
   * Source of an ES module that child processes run to open this state through the built `dist/`: it must
   * define `async function openStore(dist)` returning a `StateStore` (dist is the built `dist/` folder URL).
   */
  processOpener: string;
  /** Drops the state (removes the file, drops the schema). */
  dispose(): Promise<void>;
}
