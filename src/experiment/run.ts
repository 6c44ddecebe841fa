import type { RagwatchConfig } from '../config/schema.js';
import { getDataset } from '../langfuse/datasets.js';
import { LangfuseApiError, type LangfuseHttp } from '../langfuse/http.js';
import { ensureScoreConfigs } from '../langfuse/score-configs.js';
import { writeScores } from '../langfuse/scores.js';
import type { ApiGeneration } from '../langfuse/types.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/types.js';
import type { SampleAnonymizer } from '../online/ports.js';
import { scoreConfigDefinitions } from '../online/scores.js';
import type { Progress } from '../progress/index.js';
import type { Logger } from '../service/logger.js';
import type { StateStore } from '../state/types.js';
import { VERSION } from '../version.js';
import { ExperimentIncompleteError, ExperimentInputError, type Dependency } from './errors.js';
import { loadHistory } from './history.js';
import { loadGoldenItems } from './items.js';
import { createRunRecorder } from './langfuse/recorder.js';
import { configHash, promptVersions, reportLink } from './metadata.js';
import { cleanItem, noisyItem, pool, type PassDeps } from './passes.js';
import { buildReport, perItemValues, safeDirName, writeReportFiles, type ExperimentReport, type SplitFilter, type WrittenReport } from './report/index.js';
import { runScoresFor } from './run-level.js';
import { uniqueRunName } from './run-name.js';
import { ABSTENTION_SCORE } from './score-names.js';
import { createHttpTarget, createReplayTarget, targetConfigProblems, type HttpTargetDeps, type Target } from './target.js';
import { writeRunScores } from './langfuse/run-scores.js';

export interface ExperimentDeps {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Identity when `experiment.anonymize` is off (see `experimentAnonymizer`). */
  anonymizer: SampleAnonymizer;
  state: StateStore | null;
  logger: Logger;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  /** An HTTP target built elsewhere; by default one is built from `experiment.target`. */
  target?: Target;
  targetDeps?: HttpTargetDeps;
  newTraceId?: () => string;
  newSpanId?: () => string;
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
  report: ExperimentReport;
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
 * any work for bad input, `ExperimentIncompleteError` when a dependency stays unreachable.
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
    };
    const metadata = { source: 'ragwatch', ...runMeta, thresholds: config.metrics.thresholds, dataset: datasetName, split, reportUrl, apiGeneration: deps.generation };
    logger.info({ runName, dataset: datasetName, split, items: loaded.items.length, target: target.description, noise }, 'experiment started');

    const configIds = await scoreConfigIds(deps, fail, signal);
    const recorder = createRunRecorder({
      http,
      generation: deps.generation,
      datasetId: dataset.id,
      runName,
      description: `ragwatch golden-set experiment (${split}); report: ${reportUrl}`,
      metadata,
      signal,
      ...(deps.newTraceId ? { newTraceId: deps.newTraceId } : {}),
      ...(deps.newSpanId ? { newSpanId: deps.newSpanId } : {}),
    });
    const passDeps: PassDeps = {
      target,
      recorder,
      scoring: { judge: deps.judge, embeddings: deps.embeddings, options: config.metrics, anonymizer: deps.anonymizer, metrics: cfg.metrics },
      scoreContext: { runName, scorePrefix: config.metrics.scorePrefix, judgeModel: deps.judge.model, configIds, anonymizer: deps.anonymizer },
      runName,
      concurrency: Math.max(cfg.target.concurrency, Math.ceil(config.judge.concurrency / 2)),
      now,
      logger,
      signal,
      fail,
    };
    const progress = options.progress;
    const counted = <T, R>(work: (x: T) => Promise<R>) => async (x: T) => {
      const r = await work(x);
      progress?.advance();
      return r;
    };
    progress?.stage('experiment: clean pass', { total: loaded.items.length, unit: 'items' });
    const clean = await pool(loaded.items, passDeps.concurrency, signal, counted((item) => cleanItem(item, passDeps)));
    if (noise) {
      const contextsPool = clean.flatMap((c) => (c.answer && !c.outcome.adversarial ? [{ itemId: c.outcome.itemId, contexts: c.answer.contexts }] : []));
      const noisy = loaded.items.map((item, i) => ({ item, clean: clean[i]! })).filter((x) => !x.item.adversarial);
      progress?.stage('experiment: noise pass', { total: noisy.length, unit: 'items' });
      await pool(noisy, passDeps.concurrency, signal, counted((x) => noisyItem(x.item, x.clean, contextsPool, cfg.noise.distractors, cfg.seed, passDeps)));
    }
    await langfuse(() => recorder.flush(), fail);
    const traceScores = clean.flatMap((c) => c.scores);
    const written = await langfuse(() => writeScores(http, traceScores, { signal }), fail);
    if (written.failed.length > 0) {
      const f = written.failed[0]!;
      fail('langfuse', `Langfuse did not take ${written.failed.length} of ${traceScores.length} scores (first: ${f.name} on trace ${f.traceId}: ${f.message})`);
    }

    const outcomes = clean.map((c) => c.outcome);
    const report = buildReport({
      runName,
      datasetName,
      startedAt: new Date(startedAt).toISOString(),
      finishedAt: new Date(Math.max(startedAt, now())).toISOString(),
      split,
      run: runMeta,
      metrics: cfg.metrics,
      thresholds: config.metrics.thresholds,
      outcomes,
      previous: history.previous,
      history: history.trend,
      bootstrap: { samples: cfg.bootstrapSamples, seed: cfg.seed },
      noiseThreshold: cfg.noise.threshold,
    });
    const files = await writeReportFiles(options.reportsDir, report);

    if (recorder.datasetRunId) {
      const runScores = runScoresFor(report, config.metrics.scorePrefix, ABSTENTION_SCORE);
      const failures = await langfuse(() => writeRunScores(http, recorder.datasetRunId!, runScores, report.finishedAt, signal), fail);
      if (failures.length > 0) fail('langfuse', `Langfuse did not take the run scores (${failures.map((f) => `${f.name}: ${f.message}`).join('; ')})`);
    }
    if (deps.state) {
      await deps.state.recordExperimentRun({
        dataset: datasetName,
        runName,
        datasetRunId: recorder.datasetRunId,
        startedAt,
        finishedAt: Date.parse(report.finishedAt),
        split,
        gatePassed: report.gate.passed,
        means: Object.fromEntries(report.metrics.map((m) => [m, report.cells.find((c) => c.metric === m && c.split === 'all' && c.stratum === 'all')?.summary.mean ?? null])),
        perItem: Object.fromEntries([...perItemValues(outcomes.filter((o) => !o.adversarial), cfg.metrics)].map(([m, values]) => [m, Object.fromEntries(values)])),
      });
    }
    logger.info({ runName, passed: report.gate.passed, judgedOn: report.gate.judgedOn, regressions: report.comparison?.regressions ?? [], report: files.html }, 'experiment finished');
    return {
      runName,
      datasetRunId: recorder.datasetRunId,
      report,
      files,
      reportUrl,
      passed: report.gate.passed,
      unreadable: loaded.unreadable,
      historySource: history.source,
      scoresWritten: written.written.length,
    };
  } catch (err) {
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
  const defs = [
    ...scoreConfigDefinitions(deps.config.metrics.scorePrefix, deps.config.experiment.metrics),
    { name: ABSTENTION_SCORE, description: 'Adversarial golden-set item: 1 when the RAG said it lacks the information or rejected the false premise, else 0. Scored by ragwatch.', min: 0, max: 1 },
  ];
  try {
    return await ensureScoreConfigs(deps.http, defs, signal);
  } catch (err) {
    if (err instanceof LangfuseApiError && (err.unreachable || err.kind === 'aborted')) fail('langfuse', `Langfuse: ${err.message}`);
    deps.logger.warn({ error: (err as Error).message }, 'score configs not available; scores are written without them');
    return new Map();
  }
}
