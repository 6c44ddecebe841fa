import type { RagwatchConfig } from '../config/schema.js';
import { getDataset } from '../langfuse/datasets.js';
import { LangfuseApiError, type LangfuseHttp } from '../langfuse/http.js';
import { ensureScoreConfigs } from '../langfuse/score-configs.js';
import type { ApiGeneration } from '../langfuse/types.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/types.js';
import type { SampleAnonymizer } from '../anonymize/sample-anonymizer.js';
import type { Logger } from '../service/logger.js';
import type { ExperimentState } from './history.js';
import type { Progress } from '../progress/index.js';
import { VERSION } from '../version.js';
import { ExperimentIncompleteError, ExperimentInputError, type Dependency } from './errors.js';
import { loadHistory } from './history.js';
import { loadGoldenItems } from './items.js';
import { createRunRecorder } from './langfuse/recorder.js';
import { configHash, definitionVersions, promptVersions, reportLink } from './metadata.js';
import { finishRun, type CompleteReport, type Stop } from './finish.js';
import { OutageWatch, type HealthProbe } from './outage.js';
import { cleanItem, noisyItem, pool, type CleanResult, type PassDeps } from './passes.js';
import { safeDirName, type SplitFilter, type WrittenReport } from './report/index.js';
import { uniqueRunName } from './run-name.js';
import { experimentScoreConfigs } from '../scores/index.js';
import { createHttpTarget, createReplayTarget, targetConfigProblems, type HttpTargetDeps, type Target } from './target.js';

export interface ExperimentDeps {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Identity when `experiment.anonymize` is off (see `experimentAnonymizer`). */
  anonymizer: SampleAnonymizer;
  state: ExperimentState | null;
  logger: Logger;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  /** An HTTP target built elsewhere; by default one is built from `experiment.target`. */
  target?: Target;
  targetDeps?: HttpTargetDeps;
  newTraceId?: () => string;
  newSpanId?: () => string;
  /** Injected waits (tests): score retries, service traces not ingested yet. */
  sleep?: (ms: number) => Promise<void>;
  /** Health probes telling an outage apart from one item's failure (the judge's `/models`). */
  probes?: Partial<Record<Dependency, HealthProbe>>;
}

export interface ExperimentOptions {
  dataset?: string;
  split?: SplitFilter;
  runName?: string;
  /** Where `<run>/report.*` go (already resolved). */
  reportsDir: string;
  signal?: AbortSignal;
  /** Sees each pass start and each item finish (`experiment run` shows it on stderr). */
  progress?: Pick<Progress, 'stage' | 'advance'>;
}

export interface ExperimentResult {
  runName: string;
  datasetRunId: string | null;
  report: CompleteReport;
  files: WrittenReport;
  reportUrl: string;
  passed: boolean;
  /** Items the dataset has that could not be run (no question). */
  unreadable: Array<{ itemId: string; reason: string }>;
  /** Where the previous run's per-item values came from. */
  historySource: 'langfuse' | 'state' | 'none';
  scoresWritten: number;
}

/**
 * One golden-set experiment: every item of the dataset through the RAG service, scored, recorded as a dataset
 * run in Langfuse, compared with the previous run and written as a report. Throws `ExperimentInputError` before
 * any work for bad input, `ExperimentIncompleteError` when a dependency stays unreachable or too many items
 * fail (after writing the incomplete report, once the items have started).
 */
export async function runExperiment(deps: ExperimentDeps, options: ExperimentOptions): Promise<ExperimentResult> {
  const { config, http, logger } = deps;
  const cfg = config.experiment;
  const now = deps.now ?? Date.now;
  const problems = targetConfigProblems(cfg.target, deps.env ?? process.env);
  if (problems.length > 0) throw new ExperimentInputError(problems);

  const controller = new AbortController();
  const outer = options.signal;
  const onOuter = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  let failure: ExperimentIncompleteError | null = null;
  const fail = (dependency: Dependency, message: string): never => {
    failure ??= new ExperimentIncompleteError(dependency, message);
    controller.abort(failure);
    throw failure;
  };
  const signal = controller.signal;

  try {
    const datasetName = options.dataset ?? cfg.dataset;
    const split = options.split ?? cfg.split;
    const startedAt = now();
    const dataset = await langfuse(() => getDataset(http, datasetName, signal), fail);
    if (!dataset) throw new ExperimentInputError([`experiment: dataset "${datasetName}" does not exist in Langfuse at ${http.baseUrl}`]);
    const loaded = await langfuse(() => loadGoldenItems(http, datasetName, cfg, split, signal), fail);
    for (const u of loaded.unreadable) logger.warn({ itemId: u.itemId, reason: u.reason }, 'dataset item skipped');
    if (loaded.items.length === 0) {
      throw new ExperimentInputError([
        loaded.total === 0 ? `experiment: dataset "${datasetName}" has no active items` : `experiment: dataset "${datasetName}" has no readable items in split "${split}" (${loaded.total} active items, ${loaded.unreadable.length} without a question at input.${cfg.questionPath})`,
      ]);
    }

    const history = await langfuse(
      () =>
        loadHistory({ http, generation: deps.generation, dataset, state: deps.state, metrics: cfg.metrics, scorePrefix: config.metrics.scorePrefix, trendRuns: cfg.trendRuns, now: startedAt, logger, signal }),
      fail,
    );
    if (options.runName && history.existingNames.includes(options.runName)) {
      throw new ExperimentInputError([`experiment: dataset "${datasetName}" already has a run named "${options.runName}"; choose another --run-name`]);
    }
    const runName = options.runName ?? uniqueRunName(cfg.runNamePrefix, new Date(startedAt), history.existingNames);
    const reportUrl = reportLink(config, safeDirName(runName));
    const hasAdversarial = loaded.items.some((i) => i.adversarial);
    const target = cfg.target.mode === 'replay' ? createReplayTarget(cfg.target.replay, new Map(loaded.items.map((i) => [i.id, i.raw]))) : (deps.target ?? createHttpTarget(cfg.target, deps.targetDeps));
    const noise = cfg.noise.enabled && target.acceptsDistractors;
    if (cfg.noise.enabled && !target.acceptsDistractors) logger.warn('experiment.noise.enabled but the target takes no {{distractors}}: ΔFaithfulness is not measured');
    const runMeta = {
      ragwatchVersion: VERSION,
      judgeModel: deps.judge.model,
      embeddingsModel: deps.embeddings.model,
      promptVersions: promptVersions(cfg.metrics, hasAdversarial, noise),
      configHash: configHash(config),
      seed: cfg.seed,
      target: target.description,
      definitionVersions: definitionVersions(cfg.metrics, noise),
    };
    const metadata = { source: 'ragwatch', ...runMeta, thresholds: config.metrics.thresholds, dataset: datasetName, split, reportUrl, apiGeneration: deps.generation };
    logger.info({ runName, dataset: datasetName, split, items: loaded.items.length, target: target.description, noise }, 'experiment started');

    const configIds = await scoreConfigIds(deps, fail, signal);
    // From here on an outage stops the passes but not the run: what finished is still recorded and reported.
    const passes = new AbortController();
    const asking = new AbortController();
    const onRunAbort = () => passes.abort(signal.reason);
    signal.addEventListener('abort', onRunAbort, { once: true });
    passes.signal.addEventListener('abort', () => asking.abort(passes.signal.reason), { once: true });
    let stopped: Stop | null = null;
    const passDeps: PassDeps = {
      target,
      scoring: { judge: deps.judge, embeddings: deps.embeddings, options: config.metrics, anonymizer: deps.anonymizer, metrics: cfg.metrics },
      runName,
      concurrency: Math.max(cfg.target.concurrency, Math.ceil(config.judge.concurrency / 2)),
      now,
      logger,
      signal: passes.signal,
      targetSignal: asking.signal,
      outages: new OutageWatch(deps.probes ?? {}, now),
      stop: (dependency, message) => {
        if (stopped) return;
        stopped = { dependency, message };
        logger.warn({ dependency, error: message }, 'stopping the experiment: a dependency is unreachable; the items that finished are kept');
        // The RAG service down: answers already in hand are still scored. The judge down: nothing more can be.
        (dependency === 'rag' ? asking : passes).abort(new ExperimentIncompleteError(dependency, message));
      },
      halted: () => stopped !== null || passes.signal.aborted,
    };
    const progress = options.progress;
    const counted = <T, R>(work: (x: T) => Promise<R>) => async (x: T) => {
      const r = await work(x);
      progress?.advance();
      return r;
    };
    progress?.stage('experiment: clean pass', { total: loaded.items.length, unit: 'items' });
    const clean = await pool(loaded.items, passDeps.concurrency, passDeps.halted, counted((item) => cleanItem(item, passDeps)));
    if (noise && !passDeps.halted()) {
      const finished = clean.filter((c): c is CleanResult => c !== undefined);
      const contextsPool = finished.flatMap((c) => (c.answer && !c.outcome.adversarial ? [{ itemId: c.outcome.itemId, contexts: c.answer.contexts }] : []));
      const noisy = finished.filter((c) => !c.outcome.adversarial);
      progress?.stage('experiment: noise pass', { total: noisy.length, unit: 'items' });
      await pool(noisy, passDeps.concurrency, passDeps.halted, counted(async (c) => noisyItem(c, contextsPool, cfg.noise.distractors, cfg.seed, passDeps)));
    }
    signal.removeEventListener('abort', onRunAbort);
    if (outer?.aborted) throw outer.reason ?? new Error('aborted');

    const recorder = createRunRecorder({
      http,
      generation: deps.generation,
      datasetId: dataset.id,
      runName,
      description: `ragwatch golden-set experiment (${split}); report: ${reportUrl}`,
      metadata,
      signal,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.newTraceId ? { newTraceId: deps.newTraceId } : {}),
      ...(deps.newSpanId ? { newSpanId: deps.newSpanId } : {}),
    });
    const done = await finishRun({
      http,
      recorder,
      state: deps.state,
      logger,
      signal,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      clean,
      stop: stopped,
      maxFailedShare: cfg.maxFailedShare,
      scoreContext: { runName, scorePrefix: config.metrics.scorePrefix, judgeModel: deps.judge.model, configIds, anonymizer: deps.anonymizer },
      report: {
        runName,
        datasetName,
        startedAt: new Date(startedAt).toISOString(),
        split,
        run: runMeta,
        metrics: cfg.metrics,
        thresholds: config.metrics.thresholds,
        previous: history.previous,
        history: history.trend,
        bootstrap: { samples: cfg.bootstrapSamples, seed: cfg.seed },
        noiseThreshold: cfg.noise.threshold,
      },
      now,
      reportsDir: options.reportsDir,
      datasetName,
      metrics: cfg.metrics,
      scorePrefix: config.metrics.scorePrefix,
    });
    const report = done.report;
    logger.info({ runName, passed: report.gate.passed, judgedOn: report.gate.judgedOn, decidedOn: report.gate.decidedOn.items, failedItems: report.failures.items, regressions: report.comparison?.regressions ?? [], report: done.files.html }, 'experiment finished');
    return {
      runName,
      datasetRunId: done.datasetRunId,
      report,
      files: done.files,
      reportUrl,
      passed: report.gate.passed,
      unreadable: loaded.unreadable,
      historySource: history.source,
      scoresWritten: done.scoresWritten,
    };
  } catch (err) {
    if (err instanceof ExperimentIncompleteError) throw err;
    if (failure) throw failure;
    if (err instanceof ExperimentInputError) throw err;
    if (outer?.aborted) throw err;
    if (err instanceof LangfuseApiError && err.unreachable) throw new ExperimentIncompleteError('langfuse', `Langfuse unreachable after retries: ${err.message}`);
    throw err;
  } finally {
    outer?.removeEventListener('abort', onOuter);
  }
}

/** Langfuse calls: an unreachable server ends the run as incomplete; rejected keys stay config errors. */
async function langfuse<T>(work: () => Promise<T>, fail: (d: Dependency, m: string) => never): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LangfuseApiError && err.kind !== 'aborted' && !(err.status === 401 || err.status === 403)) fail('langfuse', `Langfuse: ${err.message}`);
    throw err;
  }
}

async function scoreConfigIds(deps: ExperimentDeps, fail: (d: Dependency, m: string) => never, signal: AbortSignal): Promise<Map<string, string>> {
  try {
    return await ensureScoreConfigs(deps.http, experimentScoreConfigs(deps.config), signal);
  } catch (err) {
    if (err instanceof LangfuseApiError && (err.unreachable || err.kind === 'aborted')) fail('langfuse', `Langfuse: ${err.message}`);
    deps.logger.warn({ error: (err as Error).message }, 'score configs not available; scores are written without them');
    return new Map();
  }
}
