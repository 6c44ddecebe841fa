import { recordingJudge, type JudgeCallRecord, type JudgeCallTracer } from '../judge-calls/index.js';
import type { Pricing } from '../judge/index.js';
import { LANGUAGE_NOT_ALLOWED, type MetricName, type MetricResult } from '../metrics/index.js';
import type { RagSample } from '../sample.js';
import {
  langfuseFailure,
  metricFailure,
  scoreWriteFailure,
  unexpectedFailure,
  type Channel,
  type Failure,
} from './failures.js';
import type { AnonymizedSample, AnswerLeak, AnswerLeakCheck, SampleAnonymizer } from '../anonymize/index.js';
import { answerLeakScore } from './answer-leak.js';
import { publishableComment, type ScoreWriter } from '../scores/index.js';
import type { Extractor, OnlineLangfuse, SampleScorer, TraceRecord } from './ports.js';
import { scoresFromResults } from './trace-scores.js';

/** Everything needed to turn one trace into scores on that trace. */
export interface EvaluateDeps {
  langfuse: OnlineLangfuse;
  extract: Extractor;
  anonymizer: SampleAnonymizer;
  score: SampleScorer;
  metrics: readonly MetricName[];
  judgeModel: string;
  /** `judge.pricing`, for the cost in each score's metadata. */
  pricing?: Pricing;
  scorePrefix: string;
  configIds: ReadonlyMap<string, string>;
  /** Batches score writes across traces; without it each trace writes its own scores. */
  scoreWriter?: ScoreWriter;
  /** `judge.traceCalls`: the judge calls of each evaluation go to Langfuse, linked from the scores. */
  judgeCalls?: JudgeCallTracer;
  /** `metrics.allowedLanguages`: false skips the (anonymized) sample as `language_not_allowed`. */
  languageAllowed?: (sample: RagSample) => boolean;
  /** `online.answerLeak`: counts the answer's personal data its question and contexts did not hold. */
  answerLeak?: AnswerLeakCheck;
}

export interface EvaluateTarget {
  traceId: string;
  /** ISO timestamp the scores are written with; defaults to the fetched trace's own. */
  traceTimestamp?: string;
  environment?: string | null;
  sampleRate: number;
}

export interface EvaluateOptions {
  signal: AbortSignal;
  /** Score but write nothing. */
  dryRun?: boolean;
  /** Sees the trace after extraction and anonymization: what the judge is given (for `sample --trace`). */
  onSample?: (view: { shape: string; sample: RagSample; entities: number; trace: TraceRecord }) => void;
  /** Sees the metric results and every judge call made for them (for `sample --trace`). */
  onJudged?: (judged: { results: MetricResult[]; calls: JudgeCallRecord[] }) => void;
  /** Told each time a dependency answered properly for this trace: evidence that it works. */
  onReached?: (channel: Channel) => void;
}

export interface ScoredValue {
  metric: MetricName;
  value: number;
}

export type TraceOutcome =
  | {
      kind: 'done';
      scoreIds: string[];
      scored: ScoredValue[];
      notScorable: MetricName[];
      written: boolean;
      /** The answer-leak check's counts (no values), when it ran. */
      leak?: AnswerLeak;
      /** The sample's language code (`es`, `fr`, `und`), when a metric scored. */
      language?: string;
    }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; failure: Failure };

export type PreparedTrace =
  | { kind: 'ready'; extracted: Extract<ReturnType<Extractor>, { ok: true }>; anonymized: AnonymizedSample }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; failure: Failure };

/**
 * What a trace gives the judge, or why it is skipped: extraction (`not_rag`, `no_contexts`, …), then anonymization
 * (`pii_residual` when something would still reach the judge). The tick and its dry-run plan decide by this alone.
 */
export function prepareForJudge(
  deps: Pick<EvaluateDeps, 'extract' | 'anonymizer' | 'languageAllowed'>,
  trace: TraceRecord,
): PreparedTrace {
  const extracted = deps.extract(trace);
  if (!extracted.ok) return { kind: 'skipped', reason: extracted.reason };
  let anonymized;
  try {
    anonymized = deps.anonymizer.anonymizeSample(extracted.sample);
  } catch (err) {
    return { kind: 'failed', failure: unexpectedFailure(err, 'anonymize') };
  }
  if (anonymized.residual.length > 0) return { kind: 'skipped', reason: 'pii_residual' };
  if (deps.languageAllowed && !deps.languageAllowed(anonymized.sample))
    return { kind: 'skipped', reason: LANGUAGE_NOT_ALLOWED };
  return { kind: 'ready', extracted, anonymized };
}

/**
 * Fetches, extracts, anonymizes, scores and writes one trace. Throws only when `signal` aborts (the work is
 * abandoned, not failed: nothing is to be charged to the trace); every other problem is an outcome.
 */
export async function evaluateTrace(
  deps: EvaluateDeps,
  target: EvaluateTarget,
  options: EvaluateOptions,
): Promise<TraceOutcome> {
  const { signal } = options;
  const reached = options.onReached ?? (() => {});
  let trace: TraceRecord | null;
  try {
    trace = await deps.langfuse.getTrace(target.traceId, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: 'failed', failure: { ...langfuseFailure(err), channel: 'langfuse:read' } };
  }
  reached('langfuse:read');
  // A trace that was listed but cannot be read yet is read lag: retry later, never skip.
  if (!trace)
    return { kind: 'failed', failure: { dependency: null, code: 'langfuse:trace_not_readable', outageLike: false } };

  const prepared = prepareForJudge(deps, trace);
  if (prepared.kind !== 'ready') return prepared;
  const { extracted, anonymized } = prepared;
  // Before anonymization (placeholders hide which values the sources held), and never sent anywhere: counts only.
  const leak = deps.answerLeak?.(extracted.sample);
  options.onSample?.({
    shape: extracted.shape,
    sample: anonymized.sample,
    entities: anonymized.entities.length,
    trace,
  });

  let results;
  const calls: JudgeCallRecord[] = [];
  const record = deps.judgeCalls !== undefined || options.onJudged !== undefined;
  try {
    results = await deps.score(
      anonymized.sample,
      deps.metrics,
      signal,
      record ? (judge) => recordingJudge(judge, calls) : undefined,
    );
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: 'failed', failure: unexpectedFailure(err, 'metrics') };
  }
  // Metrics turn an abort into a `failed` result: that is abandoned work, not the trace's failure.
  signal.throwIfAborted();
  if (results.some((r) => r.status === 'scored')) reached('judge');
  options.onJudged?.({ results, calls });
  // Failed calls are traced too: that is where an operator looks for what went wrong.
  const executionTraceId =
    deps.judgeCalls && !options.dryRun ? await deps.judgeCalls.record({ traceId: trace.id, calls }, signal) : null;
  for (const result of results) {
    // All or nothing: a trace is done only when every metric either scored or was not scorable.
    if (result.status === 'failed') return { kind: 'failed', failure: metricFailure(result) };
  }

  const scores = scoresFromResults(results, {
    traceId: trace.id,
    traceTimestamp: target.traceTimestamp ?? trace.timestamp,
    environment: target.environment ?? trace.environment ?? null,
    sampleRate: target.sampleRate,
    judgeModel: deps.judgeModel,
    ...(deps.pricing ? { pricing: deps.pricing } : {}),
    scorePrefix: deps.scorePrefix,
    configIds: deps.configIds,
    extractShape: extracted.shape,
    ...(executionTraceId ? { executionTraceId } : {}),
    readCut: trace.readCut ?? null,
    sanitizeComment: (text) => publishableComment(deps.anonymizer, trace.id, text),
  });
  if (leak)
    scores.push(
      answerLeakScore(leak, {
        traceId: trace.id,
        traceTimestamp: target.traceTimestamp ?? trace.timestamp,
        environment: target.environment ?? trace.environment ?? null,
        sampleRate: target.sampleRate,
        configIds: deps.configIds,
        readCut: trace.readCut ?? null,
      }),
    );
  const scored: ScoredValue[] = [];
  const notScorable: MetricName[] = [];
  for (const result of results) {
    if (result.status === 'scored') scored.push({ metric: result.metric, value: result.value });
    else if (result.status === 'not_scorable') notScorable.push(result.metric);
  }
  let language: string | undefined;
  for (const r of results) if (r.status === 'scored' && r.language) language ??= r.language.code;
  const leakOf = { ...(leak ? { leak } : {}), ...(language ? { language } : {}) };
  if (options.dryRun || scores.length === 0)
    return { kind: 'done', scoreIds: [], scored, notScorable, written: false, ...leakOf };

  let written;
  try {
    written = deps.scoreWriter
      ? await deps.scoreWriter.write(scores)
      : await deps.langfuse.writeScores(scores, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: 'failed', failure: { ...langfuseFailure(err), channel: 'langfuse:write' } };
  }
  const failed = written.failed[0];
  if (failed) {
    signal.throwIfAborted();
    return { kind: 'failed', failure: scoreWriteFailure(failed.status, failed.retryable, failed.kind) };
  }
  reached('langfuse:write');
  return { kind: 'done', scoreIds: [...written.written].sort(), scored, notScorable, written: true, ...leakOf };
}
