import type { RagwatchConfig } from '../config/index.js';
import type { Runtime } from '../runtime/index.js';
import { detectApiGeneration } from './core/detect.js';
import { filtersFromConfig, type TraceFilters } from './core/filters.js';
import { createLangfuseHttp, type LangfuseHttp, type LangfuseHttpOptions } from './core/http.js';
import { getTrace, listTraces } from './resources/trace-reads.js';
import type { ReadLimits } from './core/read-budget.js';
import { ensureScoreConfigs, type ScoreConfigDef } from './resources/score-configs.js';
import { presentScoreIds } from './resources/score-presence.js';
import { writeScores, type ScoreToWrite, type WriteScoresOptions, type WriteScoresResult } from './resources/scores.js';
import type { ApiGeneration, TraceRecord, TraceSummary } from './core/types.js';

/** Edges a deployment or a test injects; everything else comes from `config.langfuse`. */
export type LangfuseDeps = Pick<
  LangfuseHttpOptions,
  'fetch' | 'sleep' | 'random' | 'now' | 'onRequest' | 'initialBackoffMs' | 'maxBackoffMs' | 'maxRetryAfterMs'
>;

/** The Langfuse client's edges from the runtime: transport, waits, jitter, and its requests observed. */
export function langfuseDepsOf(runtime: Runtime): LangfuseDeps {
  return {
    fetch: runtime.fetch,
    sleep: runtime.sleep,
    random: runtime.random,
    onRequest: (e) => runtime.metrics.observeLangfuseRequest(e),
  };
}

export function langfuseHttpFromConfig(
  config: Pick<RagwatchConfig, 'langfuse'>,
  deps: LangfuseDeps = {},
): LangfuseHttp {
  const c = config.langfuse;
  return createLangfuseHttp({
    baseUrl: c.baseUrl,
    publicKey: c.publicKey,
    secretKey: c.secretKey,
    timeoutMs: c.timeoutMs,
    maxAttempts: c.maxAttempts,
    ...deps,
  });
}

/** The Langfuse operations the online job needs, bound to one server and its detected API generation. */
export interface LangfuseApi {
  readonly http: LangfuseHttp;
  readonly generation: ApiGeneration;
  /** `online.filters` plus the default exclusions; used when `listTraces` gets no filters. */
  readonly filters: TraceFilters;
  listTraces(window: {
    from: Date;
    to: Date;
    filters?: TraceFilters;
    pageSize?: number;
    signal?: AbortSignal;
    /** Told of each trace dropped for an excluded tag (`online.filters.excludeTags`). */
    onExcluded?: (trace: TraceSummary, reason: 'excluded_tag') => void;
  }): AsyncIterable<TraceSummary>;
  getTrace(id: string, signal?: AbortSignal): Promise<TraceRecord | null>;
  writeScores(scores: ScoreToWrite[], options?: WriteScoresOptions): Promise<WriteScoresResult>;
  ensureScoreConfigs(defs: ScoreConfigDef[], signal?: AbortSignal): Promise<Map<string, string>>;
  /** Which of these score ids Langfuse serves now (see `presentScoreIds`). */
  presentScoreIds(ids: readonly string[], signal?: AbortSignal): Promise<Set<string>>;
}

/** Builds the HTTP client, detects the API generation (unless configured) and binds the operations. */
export async function connectLangfuse(
  config: Pick<RagwatchConfig, 'langfuse' | 'online'>,
  deps: LangfuseDeps & { writeOptions?: WriteScoresOptions } = {},
): Promise<LangfuseApi> {
  const { writeOptions, ...httpDeps } = deps;
  const http = langfuseHttpFromConfig(config, httpDeps);
  const generation = await detectApiGeneration(http, config.langfuse.apiGeneration);
  const filters = filtersFromConfig(config);
  const defaults: WriteScoresOptions = { sleep: deps.sleep, random: deps.random, ...writeOptions };
  const { maxTraceBytes, maxFieldBytes } = config.langfuse;
  const limits: ReadLimits = { maxTraceBytes, maxFieldBytes };
  return {
    http,
    generation,
    filters,
    listTraces: (w) => listTraces(http, { generation, maxFieldBytes, ...w, filters: w.filters ?? filters }),
    getTrace: (id, signal) => getTrace(http, id, generation, signal, limits),
    writeScores: (scores, options) => writeScores(http, scores, { ...defaults, ...options }),
    ensureScoreConfigs: (defs, signal) => ensureScoreConfigs(http, defs, signal),
    presentScoreIds: (ids, signal) => presentScoreIds(http, generation, ids, signal),
  };
}
