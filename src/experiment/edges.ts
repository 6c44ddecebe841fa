import type { RagwatchConfig } from '../config/index.js';
import { judgeClientsFromConfig, judgeDepsOf, judgeProbe } from '../judge/index.js';
import { detectApiGeneration, langfuseDepsOf, langfuseHttpFromConfig } from '../langfuse/index.js';
import { anonymizerFromConfig, passThroughAnonymizer, type SampleAnonymizer } from '../anonymize/index.js';
import type { Runtime } from '../runtime/index.js';
import type { ReportArchive } from '../state/index.js';
import type { JudgeSection, JudgeStage } from './judge-stage.js';
import type { ExperimentState } from './run-record.js';
import type { ExperimentDeps } from './run.js';

/** The anonymizer of the experiment: `experiment.anonymize: false` (a curated golden set) sends items as they are. */
export function experimentAnonymizer(config: RagwatchConfig): SampleAnonymizer {
  return config.experiment.anonymize ? anonymizerFromConfig(config) : passThroughAnonymizer;
}

export interface ExperimentEdgeDeps<J extends JudgeSection = JudgeSection, C extends object = object> {
  /** The clock, waits, randomness, ids, transport, logger and metrics registry the run is built on. */
  runtime: Runtime;
  state: ExperimentState | null;
  env?: NodeJS.ProcessEnv;
  /** calibrate/'s judge stage, handed in by the composition root (see judge-stage.ts). */
  judgeStage: JudgeStage<J, C>;
  /** The state's report archive when the state is shared (PostgreSQL state). */
  reports?: ReportArchive | null;
}

/** Connects to Langfuse (API generation detected unless configured) and builds the judge clients. */
export async function connectExperiment<J extends JudgeSection = JudgeSection, C extends object = object>(
  config: RagwatchConfig,
  deps: ExperimentEdgeDeps<J, C>,
  signal?: AbortSignal,
): Promise<ExperimentDeps<J, C>> {
  // The runtime's one transport for Langfuse, the judge and the RAG service, as in the online job.
  const { runtime } = deps;
  const http = langfuseHttpFromConfig(config, langfuseDepsOf(runtime));
  const generation = await detectApiGeneration(http, config.langfuse.apiGeneration, signal);
  const { judge, embeddings } = judgeClientsFromConfig(config, judgeDepsOf(runtime));
  return {
    config,
    http,
    generation,
    judge,
    embeddings,
    anonymizer: experimentAnonymizer(config),
    state: deps.state,
    runtime,
    judgeStage: deps.judgeStage,
    reports: deps.reports ?? null,
    // The judge's `/models` tells "the judge is down" from "this item keeps failing", as in the online job.
    probes: { judge: judgeProbe(config, runtime.fetch) },
    ...(deps.env ? { env: deps.env } : {}),
    targetDeps: {
      fetch: runtime.fetch,
      sleep: runtime.sleep,
      random: runtime.random,
      ...(deps.env ? { env: deps.env } : {}),
    },
  };
}
