/**
 * The weekly golden-set run, stage by stage (each stage one module): items → history → plan → score configs →
 * passes (the RAG service, then the judge) → record → item scores → statistics and gate → publish → report →
 * remember. See docs/architecture.md.
 */
import type { GateOutcome } from './gate.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { LangfuseHttp, ApiGeneration } from '../langfuse/index.js';
import type { Progress } from '../progress/index.js';
import type { Logger, Runtime } from '../runtime/index.js';
import type { ReportArchive } from '../state/index.js';
import { ExperimentInputError, type Dependency } from './errors.js';
import { finishedItems } from './finished-items.js';
import { parseCompareWith, readHistory, type History } from './history.js';
import { selectItems, type ItemSelection } from './items.js';
import type { HealthProbe } from './outage.js';
import type { JudgeSection, JudgeStage } from './judge-stage.js';
import { setMaxListeners } from 'node:events';
import { planRun, withJudgeIdentity, type RunPlan } from './plan.js';
import { publishRunScores } from './publish.js';
import { recordRun } from './record.js';
import type { SplitFilter, WrittenReport } from './report/index.js';
import { RunControl } from './run-control.js';
import { runPasses } from './run-passes.js';
import { rememberRun, type ExperimentState } from './run-record.js';
import { RunStatus } from './run-status.js';
import { ensureScoreConfigIds, writeItemScores } from './score.js';
import { targetConfigProblems, type HttpTargetDeps, type Target } from './target.js';
import { judgeRun, type CompleteReport } from './verdict.js';
import { writeRunReport } from './write-report.js';

/** J and C: the judge stage's shapes of its sections, carried through to the result's report. */
export interface ExperimentDeps<J extends JudgeSection = JudgeSection, C extends object = object> {
  config: RagwatchConfig;
  http: LangfuseHttp;
  generation: ApiGeneration;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  /** Identity when `experiment.anonymize` is off (see `experimentAnonymizer`). */
  anonymizer: SampleAnonymizer;
  state: ExperimentState | null;
  /** The clock, waits, ids and logger of the run (the transport and registry are already in the clients). */
  runtime: Runtime;
  env?: NodeJS.ProcessEnv;
  /** An HTTP target built elsewhere; by default one is built from `experiment.target`. */
  target?: Target;
  targetDeps?: HttpTargetDeps;
  /** Health probes telling an outage apart from one item's failure (the judge's `/models`). */
  probes?: Partial<Record<Dependency, HealthProbe>>;
  /** The judge check and agreement with people before any item (calibrate/'s, handed in by the composition root). */
  judgeStage: JudgeStage<J, C>;
  /** The state's report archive when the state is shared (PostgreSQL): every replica serves the report from it. */
  reports?: ReportArchive | null;
}

export interface ExperimentOptions {
  dataset?: string;
  split?: SplitFilter;
  runName?: string;
  /** `--compare-with`: `previous`, `last-passed` or a run name (default `experiment.compareWith`). */
  compareWith?: string;
  /** Where `<run>/report.*` go (already resolved); null writes no file (the report is kept in `deps.reports`). */
  reportsDir: string | null;
  signal?: AbortSignal;
  /** Sees each pass start and each item finish (`experiment run` shows it on stderr). */
  progress?: Pick<Progress, 'stage' | 'advance'>;
}

export interface ExperimentResult<J extends JudgeSection = JudgeSection, C extends object = object> {
  runName: string;
  datasetRunId: string | null;
  report: CompleteReport<J, C>;
  files: WrittenReport;
  reportUrl: string;
  /** The gate passed (`outcome === 'passed'`). */
  passed: boolean;
  /** The gate's verdict: passed, failed or not_enough_evidence. */
  outcome: GateOutcome;
  /** Items the dataset has that could not be run (no question). */
  unreadable: Array<{ itemId: string; reason: string }>;
  /** Where the previous run's per-item values came from. */
  historySource: 'langfuse' | 'state' | 'none';
  scoresWritten: number;
  /** The judge stage's gauges (agreement, drift and their bars), as the state store keeps them. */
  judgeGauges: Record<string, number>;
}

/**
 * One golden-set experiment: every item of the dataset through the RAG service, scored, recorded as a dataset
 * run in Langfuse, compared with the previous run and written as a report. Throws `ExperimentInputError` before
 * any work for bad input, `ExperimentIncompleteError` when a dependency stays unreachable or too many items
 * fail (after writing the incomplete report, once the items have started).
 */
export async function runExperiment<J extends JudgeSection = JudgeSection, C extends object = object>(
  deps: ExperimentDeps<J, C>,
  options: ExperimentOptions,
): Promise<ExperimentResult<J, C>> {
  const { config, http, runtime } = deps;
  const { logger } = runtime;
  const now = runtime.clock.now;
  // What the stages take of the runtime: waits (score retries, service traces not ingested yet) and span ids.
  const parts = { logger, now, sleep: runtime.sleep, newTraceId: runtime.ids.traceId, newSpanId: runtime.ids.spanId };
  const cfg = config.experiment;
  const problems = targetConfigProblems(cfg.target, deps.env ?? process.env);
  if (problems.length > 0) throw new ExperimentInputError(problems);
  const control = new RunControl(options.signal);
  const signal = control.signal;
  // The judge stage's calls wait for judge slots beside the items': one abort listener each, bounded by the calls.
  setMaxListeners(0, signal);
  try {
    const startedAt = now();
    const request = { dataset: options.dataset ?? cfg.dataset, split: options.split ?? cfg.split, mapping: cfg };
    const selection = await control.langfuse(() => selectItems(http, request, logger, signal));
    const history = await control.langfuse(() =>
      readHistory(
        { ...deps, logger },
        selection.dataset,
        startedAt,
        signal,
        options.compareWith === undefined ? undefined : parseCompareWith(options.compareWith),
      ),
    );
    const models = { judgeModel: deps.judge.model, embeddingsModel: deps.embeddings.model };
    const planned = planRun({ ...deps, logger, ...models }, selection, history, {
      runName: options.runName,
      startedAt,
    });
    const configIds = await ensureScoreConfigIds(http, config, control, logger);
    // The judge stage (its identity, the anchor set re-scored, agreement with people) runs beside the items: its
    // calls share the judge's slots with theirs instead of leaving them idle before. Whether the judge changed is
    // still read before any regression: the report and the verdict open with it (judge-stage.ts).
    const judging = control.langfuse(() => deps.judgeStage({ ...deps, now: startedAt, signal }));
    judging.catch(() => undefined);
    const passes = await runPasses({ ...deps, ...parts, progress: options.progress }, planned, selection.items, signal);
    const judged = await judging;
    const plan = withJudgeIdentity(planned, judged.judge.identity);
    control.throwIfCallerAborted();

    // From here on an outage or a refusal does not end the run: what finished is recorded and reported.
    const status = new RunStatus(passes.stop, logger);
    const finished = finishedItems(passes.clean, status, cfg.maxFailedShare);
    const recorded = await recordRun({ ...deps, ...parts }, plan, selection, finished, status, signal);
    const scoring = { ...deps, ...parts, judgeModel: deps.judge.model, configIds };
    const scoresWritten = await writeItemScores(scoring, plan.runName, finished, recorded, status, signal);
    const verdict = { config, plan, selection, history, finished, now, judged };
    let report = judgeRun(verdict, status);
    const datasetRunId = recorded?.datasetRunId ?? null;
    const prefix = config.metrics.scorePrefix;
    if (await publishRunScores(http, prefix, report, datasetRunId, status, signal)) report = judgeRun(verdict, status);
    const reportTarget = {
      dir: options.reportsDir,
      archive: deps.reports ?? null,
      retentionDays: cfg.reportsRetentionDays,
      url: plan.reportUrl,
      now: now(),
    };
    const files = await writeRunReport(reportTarget, report, judged.rendered, status, logger);
    const complete = report as CompleteReport<J, C>;
    if (deps.state) await rememberRun(deps.state, complete, { datasetRunId, finished, metrics: cfg.metrics }, now());

    const judgeGauges = judged.gauges;
    const result = { plan, selection, history, report: complete, files, datasetRunId, scoresWritten, judgeGauges };
    return finishedRun(result, logger);
  } catch (err) {
    throw control.settle(err);
  } finally {
    control.close();
  }
}

/** The run's result, and its last log line. */
function finishedRun<J extends JudgeSection = JudgeSection, C extends object = object>(
  run: Pick<ExperimentResult<J, C>, 'files' | 'datasetRunId' | 'scoresWritten' | 'judgeGauges'> & {
    plan: RunPlan;
    selection: ItemSelection;
    history: History;
    report: CompleteReport<J, C>;
  },
  logger: Logger,
): ExperimentResult<J, C> {
  const { plan, report } = run;
  const { gate } = report;
  logger.info(
    {
      runName: plan.runName,
      gate: gate.outcome,
      judgedOn: gate.judgedOn,
      decidedOn: gate.decidedOn.items,
      failedItems: report.failures.items,
      regressions: report.comparison?.regressions ?? [],
      report: run.files.html,
    },
    'experiment finished',
  );
  return {
    runName: plan.runName,
    datasetRunId: run.datasetRunId,
    report,
    files: run.files,
    reportUrl: plan.reportUrl,
    passed: gate.passed,
    outcome: gate.outcome,
    unreadable: run.selection.unreadable,
    historySource: run.history.source,
    scoresWritten: run.scoresWritten,
    judgeGauges: run.judgeGauges,
  };
}
