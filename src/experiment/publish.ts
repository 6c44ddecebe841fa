/**
 * The publish stage: a complete run's own scores on the dataset run in Langfuse (each metric's mean, the
 * abstention rate, ΔFaithfulness, the gate). A refusal makes the run incomplete, so it happens before the report
 * is written; an incomplete run publishes nothing.
 */
import { type LangfuseHttp, writeRunScores } from '../langfuse/index.js';
import { ABSTENTION_SCORE } from '../scores/index.js';
import type { ExperimentReport } from './report/index.js';
import { runScoresFor } from './run-level.js';
import type { RunStatus } from './run-status.js';

/** Publishes the run scores of a complete run; true when Langfuse refused them (the run just became incomplete). */
export async function publishRunScores(
  http: LangfuseHttp,
  scorePrefix: string,
  report: ExperimentReport,
  datasetRunId: string | null,
  status: RunStatus,
  signal: AbortSignal,
): Promise<boolean> {
  if (!status.complete || !datasetRunId) return false;
  const runScores = runScoresFor(report, scorePrefix, ABSTENTION_SCORE);
  const at = report.finishedAt;
  const rejected = await status.langfuse(() => writeRunScores(http, datasetRunId, runScores, at, signal));
  if (rejected && rejected.length > 0) {
    const why = rejected.map((f) => `${f.name}: ${f.message}`).join('; ');
    status.langfuseFailed(`Langfuse did not take the run scores (${why})`);
  }
  return !status.complete;
}
