/**
 * What the run is, before any item starts: its unique name, the report's link, the RAG service it asks, whether
 * the noise pass runs, and the metadata that makes two runs comparable (versions, config hash, seed).
 */
import type { RagwatchConfig } from '../config/index.js';
import type { ApiGeneration } from '../langfuse/index.js';
import type { Logger } from '../runtime/index.js';
import { VERSION } from '../version.js';
import { ExperimentInputError } from './errors.js';
import type { History } from './history.js';
import type { ItemSelection } from './items.js';
import { configHash, definitionVersions, promptVersions, reportLink } from './metadata.js';
import type { JudgeSection } from './judge-stage.js';
import { safeDirName, type RunMetadata } from './report/index.js';
import { uniqueRunName } from './run-name.js';
import { createHttpTarget, createReplayTarget, type HttpTargetDeps, type Target } from './target.js';

export interface RunPlan {
  runName: string;
  reportUrl: string;
  startedAt: number;
  target: Target;
  /** The noise pass runs: enabled, and the target takes `{{distractors}}`. */
  noise: boolean;
  run: RunMetadata;
  /** The dataset run's metadata in Langfuse. */
  metadata: Record<string, unknown>;
}

export interface PlanDeps {
  config: RagwatchConfig;
  generation: ApiGeneration;
  judgeModel: string;
  embeddingsModel: string;
  logger: Logger;
  /** An HTTP target built elsewhere; by default one is built from `experiment.target`. */
  target?: Target;
  targetDeps?: HttpTargetDeps;
}

/** The run's plan; a `--run-name` the dataset already has is bad input. */
export function planRun(
  deps: PlanDeps,
  selection: ItemSelection,
  history: History,
  request: { runName?: string; startedAt: number },
): RunPlan {
  const { config, logger } = deps;
  const cfg = config.experiment;
  const datasetName = selection.dataset.name;
  if (request.runName && history.existingNames.includes(request.runName)) {
    const taken = `experiment: dataset "${datasetName}" already has a run named "${request.runName}"`;
    throw new ExperimentInputError([`${taken}; choose another --run-name`]);
  }
  const startedAt = new Date(request.startedAt);
  const runName = request.runName ?? uniqueRunName(cfg.runNamePrefix, startedAt, history.existingNames);
  const reportUrl = reportLink(config, safeDirName(runName));
  const { items, split } = selection;
  const hasAdversarial = items.some((i) => i.adversarial);
  const target =
    cfg.target.mode === 'replay'
      ? createReplayTarget(cfg.target.replay, new Map(items.map((i) => [i.id, i.raw])))
      : (deps.target ?? createHttpTarget(cfg.target, deps.targetDeps));
  const noise = cfg.noise.enabled && target.acceptsDistractors;
  if (cfg.noise.enabled && !target.acceptsDistractors) {
    logger.warn('experiment.noise.enabled but the target takes no {{distractors}}: ΔFaithfulness is not measured');
  }
  const run: RunMetadata = {
    ragwatchVersion: VERSION,
    judgeModel: deps.judgeModel,
    embeddingsModel: deps.embeddingsModel,
    promptVersions: promptVersions(cfg.metrics, hasAdversarial, noise),
    configHash: configHash(config),
    seed: cfg.seed,
    target: target.description,
    definitionVersions: definitionVersions(cfg.metrics, noise),
  };
  const metadata = {
    source: 'ragwatch',
    ...run,
    thresholds: config.metrics.thresholds,
    dataset: datasetName,
    split,
    reportUrl,
    apiGeneration: deps.generation,
  };
  const started = { runName, dataset: datasetName, split, items: items.length, target: target.description, noise };
  logger.info(started, 'experiment started');
  return { runName, reportUrl, startedAt: request.startedAt, target, noise, run, metadata };
}

/** The run's plan with the judge's identity in its metadata (recorded with the run in Langfuse and the report). */
export function withJudgeIdentity(plan: RunPlan, identity: JudgeSection['identity']): RunPlan {
  const ids = { judgeModelRoot: identity.modelRoot, judgeVllmVersion: identity.vllmVersion };
  return { ...plan, run: { ...plan.run, ...ids }, metadata: { ...plan.metadata, ...ids } };
}
