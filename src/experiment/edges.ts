import type { RagwatchConfig } from '../config/index.js';
import { createKeepAliveFetch } from '../internal/index.js';
import { judgeClientsFromConfig, type JudgeClientDeps, judgeProbe } from '../judge/index.js';
import { detectApiGeneration, langfuseHttpFromConfig, type LangfuseDeps } from '../langfuse/index.js';
import { anonymizerFromConfig, passThroughAnonymizer, type SampleAnonymizer } from '../anonymize/index.js';
import type { Logger } from '../runtime/index.js';
import type { JudgeSection, JudgeStage } from './judge-stage.js';
import type { ExperimentState } from './run-record.js';
import type { ExperimentDeps } from './run.js';

/** The anonymizer of the experiment: `experiment.anonymize: false` (a curated golden set) sends items as they are. */
export function experimentAnonymizer(config: RagwatchConfig): SampleAnonymizer {
  return config.experiment.anonymize ? anonymizerFromConfig(config) : passThroughAnonymizer;
}

export interface ExperimentEdgeDeps<J extends JudgeSection = JudgeSection, C extends object = object> {
  logger: Logger;
  state: ExperimentState | null;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  onLangfuseRequest?: LangfuseDeps['onRequest'];
  onJudgeRequest?: JudgeClientDeps['onRequest'];
  /** calibrate/'s judge stage, handed in by the composition root (see judge-stage.ts). */
  judgeStage: JudgeStage<J, C>;
}

/** Connects to Langfuse (API generation detected unless configured) and builds the judge clients. */
export async function connectExperiment<J extends JudgeSection = JudgeSection, C extends object = object>(
  config: RagwatchConfig,
  deps: ExperimentEdgeDeps<J, C>,
  signal?: AbortSignal,
): Promise<ExperimentDeps<J, C>> {
  // The one keep-alive transport for Langfuse and the judge, as in the online job, unless the caller brings its own.
  const fetchImpl = deps.fetch ?? createKeepAliveFetch();
  const langfuseDeps: LangfuseDeps = { fetch: fetchImpl };
  if (deps.sleep) langfuseDeps.sleep = deps.sleep;
  if (deps.random) langfuseDeps.random = deps.random;
  if (deps.onLangfuseRequest) langfuseDeps.onRequest = deps.onLangfuseRequest;
  const http = langfuseHttpFromConfig(config, langfuseDeps);
  const generation = await detectApiGeneration(http, config.langfuse.apiGeneration, signal);
  const judgeDeps: JudgeClientDeps = { fetch: fetchImpl };
  if (deps.sleep) judgeDeps.sleep = deps.sleep;
  if (deps.random) judgeDeps.random = deps.random;
  if (deps.onJudgeRequest) judgeDeps.onRequest = deps.onJudgeRequest;
  const { judge, embeddings } = judgeClientsFromConfig(config, judgeDeps);
  return {
    config,
    http,
    generation,
    judge,
    embeddings,
    anonymizer: experimentAnonymizer(config),
    state: deps.state,
    logger: deps.logger,
    judgeStage: deps.judgeStage,
    // The judge's `/models` tells "the judge is down" from "this item keeps failing", as in the online job.
    probes: { judge: judgeProbe(config, deps.fetch ?? globalThis.fetch) },
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.env ? { env: deps.env } : {}),
    targetDeps: {
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      ...(deps.env ? { env: deps.env } : {}),
    },
  };
}
