import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/schema.js';
import { CliExit, ExitCode } from '../exit-codes.js';
import { openState } from '../state/index.js';
import type { StateStore } from '../state/types.js';

/** Resolves `state.path` against the command's working directory. */
export function withStatePathFrom(config: RagwatchConfig, cwd: string): RagwatchConfig {
  return { ...config, state: { ...config.state, path: config.state.path === ':memory:' ? ':memory:' : resolve(cwd, config.state.path) } };
}

/** Opens the state store, or ends the command with exit code 2 (a path that cannot be used is a config error). */
export function openStateOrExit(config: RagwatchConfig): StateStore {
  try {
    return openState(config);
  } catch (err) {
    throw new CliExit(ExitCode.badInput, [`state: cannot open ${config.state.path}: ${err instanceof Error ? err.message : String(err)}`]);
  }
}

/**
 * Maps a failure to reach Langfuse at start-up to an exit: rejected keys or a wrong base URL are
 * configuration (2); anything retryable that still failed means unreachable (3).
 */
export function startupFailureExit(err: unknown): CliExit {
  const e = err as { name?: string; retryable?: boolean; message?: string };
  const message = err instanceof Error ? err.message : String(err);
  if (e?.name === 'LangfuseApiError' && e.retryable === false) {
    return new CliExit(ExitCode.badInput, [`langfuse: ${message}`, 'check langfuse.baseUrl, LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY']);
  }
  if (e?.name === 'FatalStartupError') return new CliExit(ExitCode.badInput, [message]);
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
