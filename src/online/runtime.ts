import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { RagwatchConfig } from '../config/index.js';
import type { LeaseHolder } from '../state/index.js';
import { connectOnlineEdges, ensureOnlineScoreConfigs, type EdgeDeps, type OnlineEdges } from './edges.js';
import { ScoreBatcher } from '../scores/index.js';
import { onlineSettingsFrom, type OnlineJobDeps, type OnlineSettings, type OnlineState } from './job.js';
import type { OnlineRecorder } from './ports.js';

export function processLeaseHolder(): LeaseHolder {
  const host = hostname();
  return { id: `${host}:${process.pid}:${randomUUID().slice(0, 8)}`, host, pid: process.pid };
}

export interface OnlineRuntimeOptions extends EdgeDeps {
  state: OnlineState;
  recorder?: OnlineRecorder;
  holder?: LeaseHolder;
  /** Skip creating score configs (dry runs write nothing). */
  skipScoreConfigs?: boolean;
  signal?: AbortSignal;
}

export interface OnlineRuntime {
  edges: OnlineEdges;
  deps: OnlineJobDeps;
  settings: OnlineSettings;
}

/**
 * Everything one online tick needs, connected on the runtime's edges (clock, transport, logger, metrics):
 * Langfuse (generation detected), judge, score configs, state.
 */
export async function createOnlineRuntime(
  config: RagwatchConfig,
  options: OnlineRuntimeOptions,
): Promise<OnlineRuntime> {
  const edges = await connectOnlineEdges(config, options, options.signal);
  const configIds = options.skipScoreConfigs
    ? new Map<string, string>()
    : await ensureOnlineScoreConfigs(config, edges.langfuse, options.signal);
  const deps: OnlineJobDeps = {
    ...edges.evaluate,
    configIds,
    scoreWriter: new ScoreBatcher(edges.langfuse),
    state: options.state,
    clock: options.runtime.clock,
    logger: options.runtime.logger,
    holder: options.holder ?? processLeaseHolder(),
    probes: edges.probes,
    ...(options.recorder ? { recorder: options.recorder } : {}),
  };
  return { edges, deps, settings: onlineSettingsFrom(config) };
}
