import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { LangfuseApiError } from '../langfuse/index.js';
import { isCredentialsCode } from '../online/index.js';
import { credentialsLine, dependencyOfCode } from './dependency-health.js';
import {
  isStateError,
  type StateError,
  openState,
  maskPostgresUrl,
  withoutPassword,
  type StateStore,
} from '../state/index.js';

/** Resolves `state.path` against the command's working directory. */
export function withStatePathFrom(config: RagwatchConfig, cwd: string): RagwatchConfig {
  const anchors = config.calibrate.anchors;
  return {
    ...config,
    state: { ...config.state, path: config.state.path === ':memory:' ? ':memory:' : resolve(cwd, config.state.path) },
    // The anchor set file is read from the same working directory.
    calibrate: {
      ...config.calibrate,
      anchors: { ...anchors, ...(anchors.path ? { path: resolve(cwd, anchors.path) } : {}) },
    },
  };
}

/**
 * Opens the state store, or ends the command: 2 when the file or schema cannot be ragwatch's state (or the
 * server refuses the role), 3 when the disk or the PostgreSQL server is in the way.
 */
export async function openStateOrExit(config: RagwatchConfig): Promise<StateStore> {
  try {
    return await openState(config);
  } catch (err) {
    if (isStateError(err)) throw stateFailureExit(err);
    const message = err instanceof Error ? err.message : String(err);
    if (config.state.url)
      throw new CliExit(ExitCode.badInput, [
        `state.url: ${maskPostgresUrl(config.state.url)}: ${withoutPassword(message, config.state.url)}`,
      ]);
    throw new CliExit(ExitCode.badInput, [`state.path: cannot open ${config.state.path}: ${message}`]);
  }
}

/** A run that ended on refused credentials (`langfuse:http_401`, `metric:faithfulness:http_403`): exit 2 naming the key. */
export function credentialsExit(code: string | undefined): CliExit | null {
  if (!code || !isCredentialsCode(code)) return null;
  const dependency = dependencyOfCode(code);
  return dependency === 'langfuse' || dependency === 'judge'
    ? new CliExit(ExitCode.badInput, [credentialsLine(dependency, code)])
    : null;
}

/** The same state file problem ends every command the same way: one line naming `state.path`, 2 or 3. */
export function stateFailureExit(err: StateError): CliExit {
  return new CliExit(err.isInput ? ExitCode.badInput : ExitCode.incomplete, [err.message]);
}

/**
 * Maps a failure to reach Langfuse at start-up to an exit, in one line naming the key: rejected keys or a
 * wrong base URL are configuration (2); anything retryable that still failed means unreachable (3).
 */
export function startupFailureExit(err: unknown): CliExit {
  if (isStateError(err)) return stateFailureExit(err);
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof LangfuseApiError && !err.retryable) {
    if (err.status === 401 || err.status === 403)
      return new CliExit(ExitCode.badInput, [credentialsLine('langfuse', `HTTP ${err.status}`)]);
    return new CliExit(ExitCode.badInput, [`langfuse.baseUrl: ${message}`]);
  }
  // FatalStartupError (the judge refusing its key at start) and any other input error: exit 2.
  if (err instanceof InputError) return new CliExit(ExitCode.badInput, err.lines);
  return new CliExit(ExitCode.incomplete, [`langfuse unreachable after retries: ${message}`]);
}

/** Soft stop on the first SIGINT/SIGTERM, hard abort on the second. Returns a disposer. */
export function stopSignals(onSoft: () => void, onHard: () => void): () => void {
  let count = 0;
  const handler = () => {
    count += 1;
    if (count === 1) onSoft();
    else onHard();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
