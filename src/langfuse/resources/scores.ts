import { createHash, randomUUID } from 'node:crypto';
import { backoffs, retry, RetryAbortedError, type Sleep } from '../../internal/index.js';
import { LangfuseApiError, type LangfuseHttp } from '../core/http.js';
import { postIngestion, toBatches, type IngestionEvent } from './ingestion.js';

/**
 * Which scores are ragwatch's own: written through the ingestion API (source `API`). Every reader of ragwatch's
 * scores (experiment baselines and trends, the calibration's judge side) filters by name and by this source, so
 * a person's score — source `ANNOTATION`, even under ragwatch's own name — never mixes into a judge figure.
 */
export const OWN_SCORE_SOURCE = 'API';

export function isOwnScore(score: { source?: unknown } | null | undefined): boolean {
  return typeof score?.source === 'string' && score.source.toUpperCase() === OWN_SCORE_SOURCE;
}

export interface ScoreToWrite {
  traceId: string;
  /** Score name; must equal the score config's name when `configId` is set. */
  name: string;
  /** NUMERIC value, in the config's range. */
  value: number;
  /** The trace's own timestamp: a rewrite with the same id, name and UTC date replaces the score. */
  timestamp: string;
  configId?: string;
  /** Short, already anonymized. */
  comment?: string;
  metadata?: Record<string, unknown>;
  environment?: string;
  observationId?: string;
}

export interface ScoreWriteFailure {
  /** The score id (see `scoreIdFor`). */
  id: string;
  traceId: string;
  name: string;
  status: number | undefined;
  message: string;
  retryable: boolean;
  /** Why the whole request failed when it did (`connection`, `invalid_json`, `protocol`, ...); absent for per-event errors. */
  kind?: string;
}

export interface WriteScoresResult {
  /** Score ids the server acknowledged. */
  written: string[];
  failed: ScoreWriteFailure[];
}

export interface WriteScoresOptions {
  /** Rounds of re-sending events that failed retryably (the HTTP layer retries each request on its own too). */
  maxRounds?: number;
  initialBackoffMs?: number;
  sleep?: Sleep;
  random?: () => number;
  /** Envelope ids; random by default (envelopes must differ per delivery, the score id does not). */
  newEventId?: () => string;
  signal?: AbortSignal;
}

/** Deterministic score id: a UUID-formatted sha256 of trace id and score name. */
export function scoreIdFor(traceId: string, scoreName: string): string {
  const hex = createHash('sha256').update(`ragwatch-score-v1\0${traceId}\0${scoreName}`).digest('hex');
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function scoreEventBody(score: ScoreToWrite): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: scoreIdFor(score.traceId, score.name),
    traceId: score.traceId,
    name: score.name,
    value: score.value,
    dataType: 'NUMERIC',
  };
  if (score.observationId) body.observationId = score.observationId;
  if (score.configId) body.configId = score.configId;
  if (score.comment !== undefined) body.comment = score.comment;
  if (score.metadata !== undefined) body.metadata = score.metadata;
  if (score.environment) body.environment = score.environment;
  return body;
}

/**
 * Writes scores through the ingestion API and reports, per score, whether the server took it. Every event's
 * status in the 207 answer is checked; retryable failures (5xx, 429, unacknowledged) are re-sent with backoff.
 */
export async function writeScores(
  http: LangfuseHttp,
  scores: ScoreToWrite[],
  options: WriteScoresOptions = {},
): Promise<WriteScoresResult> {
  const newEventId = options.newEventId ?? randomUUID;
  const policy = {
    ...backoffs.scoreRounds,
    attempts: Math.max(1, options.maxRounds ?? 3),
    baseMs: options.initialBackoffMs ?? backoffs.scoreRounds.baseMs,
  };

  const written: string[] = [];
  const finalFailures = new Map<string, ScoreWriteFailure>();
  const unique = new Map<string, ScoreToWrite>();
  for (const s of scores) {
    const invalid = validate(s);
    const id = scoreIdFor(s.traceId, s.name);
    if (invalid)
      finalFailures.set(id, {
        id,
        traceId: s.traceId,
        name: s.name,
        status: undefined,
        message: invalid,
        retryable: false,
      });
    else unique.set(id, s); // the same score twice in one call: the last value wins, as it would on the server
  }
  let pending = [...unique.values()];

  /** One round: sends what is pending, keeps what failed retryably for the next. */
  async function round(): Promise<void> {
    const retry: ScoreToWrite[] = [];
    const events = pending.map((score) => ({ score, event: toEvent(score, newEventId()) }));
    const { batches, oversized } = toBatches(events.map((e) => e.event));
    const scoreOfEvent = new Map(events.map((e) => [e.event.id, e.score]));
    for (const event of oversized) {
      const s = scoreOfEvent.get(event.id) as ScoreToWrite;
      finalFailures.set(
        event.body.id as string,
        failure(s, undefined, 'score event larger than the ingestion batch limit', false),
      );
    }
    for (const batch of batches) {
      const batchScores = batch.map((e) => scoreOfEvent.get(e.id) as ScoreToWrite);
      let result;
      try {
        result = await postIngestion(http, batch, options.signal);
      } catch (err) {
        const e = err instanceof LangfuseApiError ? err : undefined;
        const message = err instanceof Error ? err.message : String(err);
        const retryable = e ? e.retryable : true;
        for (const s of batchScores) {
          const f = { ...failure(s, e?.status, message, retryable), ...(e ? { kind: e.kind } : {}) };
          finalFailures.set(f.id, f);
          if (retryable) retry.push(s);
        }
        continue;
      }
      const ok = new Set(result.successes.filter((x) => x.status >= 200 && x.status < 300).map((x) => x.id));
      const errors = new Map(result.errors.map((x) => [x.id, x]));
      for (const event of batch) {
        const s = scoreOfEvent.get(event.id) as ScoreToWrite;
        const scoreId = event.body.id as string;
        if (ok.has(event.id) && !errors.has(event.id)) {
          written.push(scoreId);
          finalFailures.delete(scoreId);
          continue;
        }
        const error = errors.get(event.id);
        const status = error?.status;
        const retryable = status === undefined || status === 0 || status === 429 || status >= 500;
        const message = error
          ? `ingestion rejected the score (status ${status}): ${error.message ?? 'no message'}`
          : 'the ingestion answer did not acknowledge the score';
        finalFailures.set(scoreId, failure(s, status, message, retryable));
        if (retryable) retry.push(s);
      }
    }
    pending = retry;
    if (pending.length > 0) throw new RoundLeftScores();
  }

  if (pending.length > 0) {
    try {
      await retry(policy, round, {
        shouldRetry: (err) => err instanceof RoundLeftScores,
        signal: options.signal,
        sleep: options.sleep,
        random: options.random,
      });
    } catch (err) {
      // What is left after the last round stays in `failed`; an abort between rounds ends them early, as before.
      if (err instanceof RetryAbortedError) throw options.signal?.reason ?? err;
      if (!(err instanceof RoundLeftScores)) throw err;
    }
  }
  return { written, failed: [...finalFailures.values()] };
}

/** A round left scores to re-send. */
class RoundLeftScores extends Error {}

function toEvent(score: ScoreToWrite, eventId: string): IngestionEvent {
  return { id: eventId, type: 'score-create', timestamp: eventTimestamp(score.timestamp), body: scoreEventBody(score) };
}

/** Millisecond ISO 8601 in UTC, so the UTC date Langfuse keys replacement on is the trace's own. */
function eventTimestamp(timestamp: string): string {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString();
}

function failure(s: ScoreToWrite, status: number | undefined, message: string, retryable: boolean): ScoreWriteFailure {
  return { id: scoreIdFor(s.traceId, s.name), traceId: s.traceId, name: s.name, status, message, retryable };
}

function validate(s: ScoreToWrite): string | null {
  if (!s.traceId) return 'score without trace id';
  if (!s.name) return 'score without name';
  if (typeof s.value !== 'number' || !Number.isFinite(s.value))
    return `score value is not a finite number (${String(s.value)})`;
  if (Number.isNaN(Date.parse(s.timestamp))) return `score timestamp is not a date (${s.timestamp})`;
  return null;
}

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
