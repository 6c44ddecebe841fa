/**
 * The edges the online job talks to. Production wires them to Langfuse, the anonymizer, the metrics engine
 * and the judge (see `edges.ts`); tests and benches can wire anything with the same shape.
 */
import type { ExtractResult } from '../extract/index.js';
import type { JudgeClient } from '../judge/index.js';
import type { TraceRecord, TraceSummary, ScoreToWrite, WriteScoresResult } from '../langfuse/index.js';
import type { MetricName, MetricResult } from '../metrics/index.js';
import type { RagSample } from '../sample.js';

export type { TraceRecord, TraceSummary, ScoreToWrite, WriteScoresResult };
export type { AnonymizedSample, SampleAnonymizer } from '../anonymize/index.js';

/** What the job needs from Langfuse (a subset of `LangfuseApi`). */
export interface OnlineLangfuse {
  /** `onExcluded` is told of each trace dropped for an excluded tag (`online.filters.excludeTags`). */
  listTraces(window: {
    from: Date;
    to: Date;
    signal?: AbortSignal;
    onExcluded?: (trace: TraceSummary, reason: 'excluded_tag') => void;
  }): AsyncIterable<TraceSummary>;
  getTrace(id: string, signal?: AbortSignal): Promise<TraceRecord | null>;
  writeScores(scores: ScoreToWrite[], options?: { signal?: AbortSignal }): Promise<WriteScoresResult>;
  /** Which of these score ids Langfuse serves now (the read-back of what was written). */
  presentScoreIds(ids: readonly string[], signal?: AbortSignal): Promise<Set<string>>;
}

export type Extractor = (trace: TraceRecord) => ExtractResult;

/** `wrapJudge` wraps the judge client for this one sample (to record its calls). */
export type SampleScorer = (
  sample: RagSample,
  metrics: readonly MetricName[],
  signal: AbortSignal,
  wrapJudge?: (judge: JudgeClient) => JudgeClient,
) => Promise<MetricResult[]>;

/** Whether a dependency answers at all: tells an outage apart from one trace that keeps failing. */
export type HealthProbe = (signal: AbortSignal) => Promise<boolean>;

export type { Clock } from '../runtime/index.js';

/** Counters and gauges the job reports; `src/service/metrics.ts` implements it for Prometheus. */
export interface OnlineRecorder {
  tracesListed(count: number): void;
  traceSampled(): void;
  traceDeferred(): void;
  traceEvaluated(): void;
  /** `traceName` is the trace's name as listed (null when it has none). */
  traceSkipped(reason: string, traceName?: string | null): void;
  traceFailed(code: string): void;
  traceDead(): void;
  metricResult(metric: MetricName, status: MetricResult['status']): void;
  scoresWritten(count: number): void;
  /** Scores read back after a run, and those of them Langfuse did not show within the bound. */
  scoresReadBack(checked: number, unconfirmed: number): void;
  /** The answer-leak check of one evaluated trace: counts per type, never values (`online.answerLeak`). */
  answerLeak?(leak: { total: number; byType: Readonly<Record<string, number>> }): void;
  /** Mean score of the last tick that scored anything, per metric. */
  scoreMeans(means: Partial<Record<MetricName, number>>): void;
  /** Mean score of the last tick that scored anything, per metric and sample language (ISO 639-1, `und`). */
  scoreMeansByLanguage?(means: Record<string, Record<string, number>>): void;
  /** Ledger entries by status; null drops the series (a replica that does not list exports none). */
  ledgerCounts(counts: Record<string, number> | null): void;
  tickStarted(job: string, at: number): void;
  tickFinished(job: string, outcome: string, succeeded: boolean, at: number): void;
}

export const noopRecorder: OnlineRecorder = {
  tracesListed: () => {},
  traceSampled: () => {},
  traceDeferred: () => {},
  traceEvaluated: () => {},
  traceSkipped: () => {},
  traceFailed: () => {},
  traceDead: () => {},
  metricResult: () => {},
  scoresWritten: () => {},
  scoresReadBack: () => {},
  scoreMeans: () => {},
  ledgerCounts: () => {},
  tickStarted: () => {},
  tickFinished: () => {},
};
