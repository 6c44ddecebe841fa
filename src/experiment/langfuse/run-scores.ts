import { randomUUID } from 'node:crypto';
import { type LangfuseHttp, postIngestion, scoreIdFor } from '../../langfuse/index.js';

export interface RunScore {
  name: string;
  value: number;
  comment?: string;
  metadata?: Record<string, unknown>;
}

export interface RunScoreFailure {
  name: string;
  message: string;
  retryable: boolean;
}

/**
 * Scores on the dataset run itself (`score-create` with `datasetRunId`, no trace): each metric's mean and the
 * gate verdict. Deterministic ids (run id + name), so a re-send replaces; every event's status is checked.
 */
export async function writeRunScores(
  http: LangfuseHttp,
  datasetRunId: string,
  scores: RunScore[],
  timestamp: string,
  signal?: AbortSignal,
): Promise<RunScoreFailure[]> {
  if (scores.length === 0) return [];
  const events = scores.map((s) => ({
    id: randomUUID(),
    type: 'score-create',
    timestamp,
    body: {
      id: scoreIdFor(`run:${datasetRunId}`, s.name),
      datasetRunId,
      name: s.name,
      value: s.value,
      dataType: 'NUMERIC',
      ...(s.comment ? { comment: s.comment } : {}),
      ...(s.metadata ? { metadata: s.metadata } : {}),
    },
  }));
  const result = await postIngestion(http, events, signal);
  const ok = new Set(result.successes.filter((x) => x.status >= 200 && x.status < 300).map((x) => x.id));
  const errors = new Map(result.errors.map((x) => [x.id, x]));
  const failures: RunScoreFailure[] = [];
  events.forEach((event, i) => {
    if (ok.has(event.id) && !errors.has(event.id)) return;
    const error = errors.get(event.id);
    const status = error?.status;
    failures.push({
      name: scores[i]!.name,
      message: error
        ? `ingestion rejected the run score (status ${status}): ${error.message ?? 'no message'}`
        : 'the ingestion answer did not acknowledge the run score',
      retryable: status === undefined || status === 0 || status === 429 || status >= 500,
    });
  });
  return failures;
}
