/**
 * The end of a run, complete or not: the items that finished are recorded in Langfuse (their traces, then the
 * run items linking them, then their scores), the report is written (marked incomplete, without a gate
 * verdict, when the run stopped), and only a complete run gets run-level scores and a place in ragwatch's own
 * record — so an incomplete run is never a later run's baseline.
 */
import { LangfuseApiError, type LangfuseHttp } from '../langfuse/http.js';
import { writeScores, type ScoreToWrite } from '../langfuse/scores.js';
import { ABSTENTION_SCORE, ScoreBatcher } from '../scores/index.js';
import type { MetricName } from '../metrics/types.js';
import type { Logger } from '../service/logger.js';
import type { ExperimentState } from './history.js';
import { ExperimentIncompleteError, type Dependency } from './errors.js';
import { definitionsKey } from './history.js';
import type { RunRecorder } from './langfuse/recorder.js';
import { writeRunScores } from './langfuse/run-scores.js';
import type { CleanResult } from './passes.js';
import { buildReport, cell, perItemValues, writeReportFiles } from './report/index.js';
import type { BuildReportInput, ExperimentReport, GateSummary, WrittenReport } from './report/index.js';
import { itemFailures, RAG_SERVICE, summarizeFailures } from './report/failures.js';
import { isOutageKind } from './outage.js';
import { runScoresFor } from './run-level.js';
import { traceScores, type TraceScoreContext } from './trace-scores.js';

export interface Stop {
  dependency: Dependency | null;
  message: string;
}

/** A report of a run that completed: it has a gate verdict. */
export type CompleteReport = ExperimentReport & { status: 'complete'; gate: GateSummary };

export interface FinishInput {
  http: LangfuseHttp;
  recorder: RunRecorder;
  state: ExperimentState | null;
  logger: Logger;
  /** Follows only the caller's signal: a run stopped for an outage still records what it finished. */
  signal: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
  /** Every item selected, in order; undefined for the items the run did not finish. */
  clean: ReadonlyArray<CleanResult | undefined>;
  stop: Stop | null;
  maxFailedShare: number;
  scoreContext: Omit<TraceScoreContext, 'traceId' | 'timestamp'>;
  report: Omit<BuildReportInput, 'outcomes' | 'incomplete' | 'maxFailedShare' | 'finishedAt'>;
  now: () => number;
  reportsDir: string;
  datasetName: string;
  metrics: readonly MetricName[];
  scorePrefix: string;
}

export interface Finished {
  report: CompleteReport;
  files: WrittenReport;
  datasetRunId: string | null;
  scoresWritten: number;
}

/** Finishes the run; throws `ExperimentIncompleteError` (with the written report) when it did not complete. */
export async function finishRun(input: FinishInput): Promise<Finished> {
  const { logger } = input;
  let stop = input.stop;
  // An outage is never charged to items: those that failed on the dependency before it counted as down are not run.
  const finished = input.clean.filter((c): c is CleanResult => c !== undefined && !(stop && outageVictim(c, stop.dependency)));
  const outcomes = finished.map((c) => c.outcome);
  const failures = summarizeFailures(outcomes, input.maxFailedShare);
  if (!stop && failures.share > input.maxFailedShare) {
    const message = `${failures.items} of ${outcomes.length} items failed after retries, more than experiment.maxFailedShare (${input.maxFailedShare})`;
    stop = { dependency: null, message };
  }
  const fail = (message: string) => {
    // A Langfuse failure ends a complete run as incomplete; an incomplete one keeps its first reason.
    if (!stop) stop = { dependency: 'langfuse', message };
    else logger.warn({ error: message }, 'Langfuse did not take everything of an incomplete run');
  };

  let datasetRunId: string | null = null;
  let scoresWritten = 0;
  if (stop?.dependency !== 'langfuse') {
    const complete = stop === null;
    const recorded = await langfuseStep(() => input.recorder.record(finished.flatMap(toRecord), { complete }), fail);
    if (recorded) {
      datasetRunId = recorded.datasetRunId;
      const scores = finished.flatMap((c): ScoreToWrite[] => {
        const trace = recorded.items.get(c.item.id);
        if (!trace || !c.scores) return [];
        const timestamp = new Date(c.startMs).toISOString();
        return traceScores(c.item, c.scores, { ...input.scoreContext, traceId: trace.traceId, timestamp });
      });
      const options = { signal: input.signal, ...(input.sleep ? { sleep: input.sleep } : {}) };
      const writer = new ScoreBatcher({ writeScores: (batch) => writeScores(input.http, batch, options) });
      const written = await langfuseStep(() => writer.write(scores), fail);
      scoresWritten = written?.written.length ?? 0;
      const first = written?.failed[0];
      if (first) {
        const count = `${written.failed.length} of ${scores.length}`;
        fail(`Langfuse did not take ${count} scores (first: ${first.name} on trace ${first.traceId}: ${first.message})`);
      }
    }
  }

  const build = (s: Stop | null) =>
    buildReport({
      ...input.report,
      finishedAt: new Date(Math.max(Date.parse(input.report.startedAt), input.now())).toISOString(),
      outcomes,
      maxFailedShare: input.maxFailedShare,
      incomplete: s ? { reason: s.message, dependency: s.dependency, itemsNotRun: input.clean.length - finished.length } : null,
    });
  let report = build(stop);
  if (!stop && datasetRunId) {
    const runScores = runScoresFor(report, input.scorePrefix, ABSTENTION_SCORE);
    const runId = datasetRunId;
    const rejected = await langfuseStep(() => writeRunScores(input.http, runId, runScores, report.finishedAt, input.signal), fail);
    if (rejected && rejected.length > 0) {
      fail(`Langfuse did not take the run scores (${rejected.map((f) => `${f.name}: ${f.message}`).join('; ')})`);
    }
    if (stop) report = build(stop);
  }
  const files = await writeReportFiles(input.reportsDir, report);
  if (stop) {
    logger.warn({ runName: report.runName, reason: stop.message, report: files.html }, 'experiment incomplete: no gate verdict');
    throw new ExperimentIncompleteError(stop.dependency, stop.message, files);
  }

  const complete = report as CompleteReport;
  const scoredOutcomes = outcomes.filter((o) => !o.adversarial);
  if (input.state) {
    await input.state.recordExperimentRun({
      dataset: input.datasetName,
      runName: report.runName,
      datasetRunId,
      startedAt: Date.parse(report.startedAt),
      finishedAt: Date.parse(report.finishedAt),
      split: report.split,
      gatePassed: complete.gate.passed,
      means: Object.fromEntries(report.metrics.map((m) => [m, cell(report, m)?.summary.mean ?? null])),
      perItem: Object.fromEntries([...perItemValues(scoredOutcomes, [...input.metrics])].map(([m, values]) => [m, Object.fromEntries(values)])),
    });
    const versions = JSON.stringify(report.run.definitionVersions);
    await input.state.setMeta(definitionsKey(input.datasetName, report.runName), versions, input.now());
  }
  return { report: complete, files, datasetRunId, scoresWritten };
}

/** Whether an item's failures came from the outage that stopped the run (its noise result is dropped if only that did). */
function outageVictim(c: CleanResult, dependency: Dependency | null): boolean {
  if (dependency !== 'rag' && dependency !== 'judge') return false;
  const o = c.outcome;
  if (o.noiseFailure !== undefined && isOutageKind(o.noiseFailure)) {
    delete o.noiseFailure;
    delete o.noisyFaithfulness;
  }
  if (dependency === 'rag') return o.targetErrorKind !== undefined && isOutageKind(o.targetErrorKind);
  return itemFailures(o).some((f) => f.what !== RAG_SERVICE && isOutageKind(f.kind));
}

function toRecord(c: CleanResult) {
  if (!c.answer) return [];
  return [
    {
      item: c.item.raw,
      question: c.item.question,
      answer: c.answer.answer,
      contexts: c.answer.contexts,
      serviceTraceId: c.answer.traceId,
      startMs: c.startMs,
      endMs: c.endMs,
    },
  ];
}

/** A Langfuse step: an API failure (unreachable, rejected) is reported through `fail`; rejected keys stay errors. */
async function langfuseStep<T>(work: () => Promise<T>, fail: (message: string) => void): Promise<T | undefined> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof LangfuseApiError) || err.kind === 'aborted' || err.status === 401 || err.status === 403) throw err;
    fail(`Langfuse: ${err.message}`);
    return undefined;
  }
}
