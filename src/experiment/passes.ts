import { LangfuseApiError } from '../langfuse/http.js';
import type { ScoreToWrite } from '../langfuse/scores.js';
import type { Logger } from '../service/logger.js';
import { pickDistractors } from './distractors.js';
import { ExperimentIncompleteError, type Dependency } from './errors.js';
import type { GoldenItem } from './items.js';
import type { RunRecorder } from './langfuse/recorder.js';
import type { ItemOutcome } from './report/index.js';
import { isJudgeOutage, judgeOutage, noisyFaithfulness, scoreItem, type ItemScoringDeps } from './score-item.js';
import { TargetError, type Target, type TargetAnswer } from './target.js';
import { traceScores, type TraceScoreContext } from './trace-scores.js';

export interface PassDeps {
  target: Target;
  recorder: RunRecorder;
  scoring: ItemScoringDeps;
  scoreContext: Omit<TraceScoreContext, 'traceId' | 'timestamp'>;
  runName: string;
  concurrency: number;
  now: () => number;
  logger: Logger;
  signal: AbortSignal;
  /** Ends the run: the first outage aborts everything still in flight. */
  fail: (dependency: Dependency, message: string) => never;
}

export interface CleanResult {
  outcome: ItemOutcome;
  answer: TargetAnswer | null;
  scores: ScoreToWrite[];
}

/** Runs `work` over the items with bounded concurrency, results in item order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, signal: AbortSignal, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}

/** Clean pass: ask, link the trace to the run, score. */
export async function cleanItem(item: GoldenItem, deps: PassDeps): Promise<CleanResult> {
  const base: ItemOutcome = { itemId: item.id, split: item.split, stratum: item.stratum, adversarial: item.adversarial, results: [] };
  const startMs = deps.now();
  const answer = await ask(item, [], deps);
  if ('error' in answer) return { outcome: { ...base, targetError: answer.error }, answer: null, scores: [] };
  const endMs = Math.max(startMs, deps.now());
  let recorded;
  try {
    recorded = await deps.recorder.recordItem({
      item: item.raw,
      question: item.question,
      answer: answer.answer,
      contexts: answer.contexts,
      serviceTraceId: answer.traceId,
      startMs,
      endMs,
    });
  } catch (err) {
    throw outage(err, 'langfuse', deps);
  }
  const scored = await judged(() => scoreItem(item, answer, deps.scoring, deps.signal), deps);
  const outage2 = judgeOutage(scored.results);
  if (outage2) deps.fail('judge', `judge unreachable after retries (${outage2})`);
  const outcome: ItemOutcome = { ...base, results: scored.results };
  if (item.adversarial) outcome.abstained = scored.abstained ?? null;
  const scores = traceScores(item, scored, { ...deps.scoreContext, traceId: recorded.traceId, timestamp: new Date(startMs).toISOString() });
  return { outcome, answer, scores };
}

/** Noise pass: the same item again with distractor chunks; the faithfulness of that answer. */
export async function noisyItem(item: GoldenItem, clean: CleanResult, pool: ReadonlyArray<{ itemId: string; contexts: readonly string[] }>, count: number, seed: number, deps: PassDeps): Promise<void> {
  if (!clean.answer) return;
  const distractors = pickDistractors(item.id, clean.answer.contexts, pool, count, seed);
  if (distractors.length === 0) return;
  const answer = await ask(item, distractors, deps);
  if ('error' in answer) {
    clean.outcome.noisyFaithfulness = null;
    return;
  }
  // A service that does not echo the extra chunks still read them: judge against what it was given.
  const contexts = [...answer.contexts, ...distractors.filter((d) => !answer.contexts.includes(d))];
  const result = await judged(() => noisyFaithfulness(item, { answer: answer.answer, contexts }, deps.scoring, deps.signal), deps);
  if (result?.status === 'failed' && result.retryable) deps.fail('judge', `judge unreachable after retries (faithfulness: ${result.error})`);
  clean.outcome.noisyFaithfulness = result?.status === 'scored' ? result.value : null;
}

async function ask(item: GoldenItem, distractors: string[], deps: PassDeps): Promise<TargetAnswer | { error: string }> {
  try {
    return await deps.target.ask({ itemId: item.id, question: item.question, distractors, runName: deps.runName }, deps.signal);
  } catch (err) {
    if (deps.signal.aborted) throw deps.signal.reason ?? err;
    if (err instanceof TargetError && !err.retryable) {
      deps.logger.warn({ itemId: item.id, error: err.message }, 'RAG service could not answer this item');
      return { error: err.message };
    }
    deps.fail('rag', `RAG service unreachable after retries: ${(err as Error).message}`);
  }
}

async function judged<T>(work: () => Promise<T>, deps: PassDeps): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (deps.signal.aborted) throw deps.signal.reason ?? err;
    if (isJudgeOutage(err)) deps.fail('judge', `judge unreachable after retries: ${err.message}`);
    throw err;
  }
}

function outage(err: unknown, dependency: Dependency, deps: PassDeps): Error {
  if (deps.signal.aborted) return (deps.signal.reason as Error) ?? (err as Error);
  if (err instanceof LangfuseApiError) deps.fail(dependency, `Langfuse: ${err.message}`);
  return err as Error;
}

export { ExperimentIncompleteError };
