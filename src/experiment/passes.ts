/**
 * The experiment's passes over the golden items. Each item's trouble stays that item's: a metric, an abstention
 * judgement or a RAG answer that fails after its retries is recorded on the item and the run goes on. Only an
 * outage stops the run (see `outage.ts`): then the items still in flight are abandoned (not run), never
 * counted as failures.
 */
import type { Logger } from '../runtime/index.js';
import { pickDistractors } from './distractors.js';
import type { Dependency } from './errors.js';
import type { GoldenItem } from './items.js';
import { isOutageKind } from '../errors.js';
import type { OutageWatch } from './outage.js';
import type { ItemOutcome } from './report/index.js';
import { failureKind } from './report/failures.js';
import { noisyFaithfulness, scoreItem, type ItemScores, type ItemScoringDeps } from './score-item.js';
import { TargetError, type Target, type TargetAnswer } from './target.js';

export interface PassDeps {
  target: Target;
  scoring: ItemScoringDeps;
  runName: string;
  concurrency: number;
  now: () => number;
  logger: Logger;
  /** The judge work; aborted when the judge is down (or the caller stops the run). */
  signal: AbortSignal;
  /** The RAG service's calls; aborted as well when the RAG service is down (answers in hand are still scored). */
  targetSignal: AbortSignal;
  outages: OutageWatch;
  /** Ends the run for an outage: no new item starts, and the calls to that dependency still in flight are abandoned. */
  stop: (dependency: Dependency, message: string, kind: string) => void;
  /** True once the run was stopped: no new item is taken. */
  halted: () => boolean;
}

/** The RAG service's failure for one item. */
interface TargetFailure {
  error: string;
  kind: string;
}

interface JudgeOutcome {
  /** Failure kinds of the item's judge work. */
  failures: string[];
  /** Whether the judge answered anything (even unusably): then it is reachable. */
  answered: boolean;
}

/** An item the clean pass finished (its failures included). */
export interface CleanResult {
  item: GoldenItem;
  outcome: ItemOutcome;
  answer: TargetAnswer | null;
  scores: ItemScores | null;
  startMs: number;
  endMs: number;
}

/** Clean pass: ask, score. Null when the run stopped before the item was done. */
export async function cleanItem(item: GoldenItem, deps: PassDeps): Promise<CleanResult | null> {
  const { id: itemId, split, stratum, adversarial } = item;
  const outcome: ItemOutcome = { itemId, split, stratum, adversarial, results: [] };
  const startMs = deps.now();
  const answer = await ask(item, [], deps);
  if (answer === null) return null;
  if ('error' in answer) {
    const failed = { ...outcome, targetError: answer.error, targetErrorKind: answer.kind };
    return { item, outcome: failed, answer: null, scores: null, startMs, endMs: startMs };
  }
  const endMs = Math.max(startMs, deps.now());
  let scores: ItemScores;
  try {
    scores = await scoreItem(item, answer, deps.scoring, deps.signal);
  } catch (err) {
    if (deps.signal.aborted) return null;
    // A bug, not the judge: the item's failure, the run goes on.
    deps.logger.error(
      { itemId: item.id, err: err instanceof Error ? err.name : 'error' },
      'unexpected error scoring an item',
    );
    const internal = {
      status: 'failed',
      error: 'internal error',
      kind: 'internal',
      dependency: null,
      retryable: false,
    } as const;
    scores = { results: deps.scoring.metrics.map((metric) => ({ metric, ...internal })), piiBlocked: false };
  }
  if (!(await judgeReachable(item, judgeOutcome(scores), deps))) return null;
  outcome.results = scores.results;
  if (item.adversarial) outcome.abstained = scores.abstained ?? null;
  if (scores.abstentionFailure !== undefined) outcome.abstentionFailure = scores.abstentionFailure;
  return { item, outcome, answer, scores, startMs, endMs };
}

/** Noise pass: the same item again with distractor chunks; the faithfulness of that answer. */
export async function noisyItem(
  clean: CleanResult,
  pool: ReadonlyArray<{ itemId: string; contexts: readonly string[] }>,
  count: number,
  seed: number,
  deps: PassDeps,
): Promise<void> {
  if (!clean.answer) return;
  const distractors = pickDistractors(clean.item.id, clean.answer.contexts, pool, count, seed);
  if (distractors.length === 0) return;
  const answer = await ask(clean.item, distractors, deps);
  if (answer === null) return;
  if ('error' in answer) {
    clean.outcome.noisyFaithfulness = null;
    clean.outcome.noiseFailure = answer.kind;
    return;
  }
  // A service that does not echo the extra chunks still read them: judge against what it was given.
  const contexts = [...answer.contexts, ...distractors.filter((d) => !answer.contexts.includes(d))];
  let result;
  try {
    result = await noisyFaithfulness(clean.item, { answer: answer.answer, contexts }, deps.scoring, deps.signal);
  } catch (err) {
    if (deps.signal.aborted) return;
    deps.logger.error(
      { itemId: clean.item.id, err: err instanceof Error ? err.name : 'error' },
      'unexpected error in the noise pass',
    );
    result = null;
  }
  const failed = result?.status === 'failed' ? failureKind(result) : undefined;
  const judged = { failures: failed ? [failed] : [], answered: failed === undefined || !isOutageKind(failed) };
  if (!(await judgeReachable(clean.item, judged, deps))) return;
  clean.outcome.noisyFaithfulness = result?.status === 'scored' ? result.value : null;
  if (failed !== undefined) clean.outcome.noiseFailure = failed;
}

/** The RAG service's answer, its failure for this item, or null when the run stopped (outage or abort). */
async function ask(
  item: GoldenItem,
  distractors: string[],
  deps: PassDeps,
): Promise<TargetAnswer | TargetFailure | null> {
  try {
    const request = { itemId: item.id, question: item.question, distractors, runName: deps.runName };
    const answer = await deps.target.ask(request, deps.targetSignal);
    deps.outages.answered('rag');
    return answer;
  } catch (err) {
    if (deps.targetSignal.aborted) return null;
    const failure =
      err instanceof TargetError ? err : new TargetError((err as Error)?.message ?? String(err), false, 'internal');
    if (failure.retryable && (await deps.outages.failed('rag', deps.targetSignal))) {
      deps.stop('rag', `RAG service unreachable after retries: ${failure.message}`, failure.kind);
      return null;
    }
    if (!failure.retryable) deps.outages.answered('rag');
    deps.logger.warn({ itemId: item.id, error: failure.kind }, 'RAG service could not answer this item');
    return deps.targetSignal.aborted ? null : { error: failure.message, kind: failure.kind };
  }
}

/** What an item's judge work says about the judge: failure kinds, and whether the judge answered at all. */
function judgeOutcome(scores: ItemScores): JudgeOutcome {
  const failures = scores.results.flatMap((r) => (r.status === 'failed' ? [failureKind(r)] : []));
  if (scores.abstentionFailure !== undefined) failures.push(scores.abstentionFailure);
  const usedJudge = scores.results.some(
    (r) => r.status !== 'failed' && (r.usage?.calls ?? 0) + (r.usage?.embeddingRequests ?? 0) > 0,
  );
  const judgedAbstention = typeof scores.abstained === 'boolean';
  const answered = usedJudge || judgedAbstention || failures.some((k) => !isOutageKind(k) && k !== 'aborted');
  return { failures, answered };
}

/**
 * Feeds the outage watch with one item's judge work. False when the run must stop (the judge is down: the item
 * is abandoned, not failed) or was stopped meanwhile.
 */
async function judgeReachable(item: GoldenItem, judged: JudgeOutcome, deps: PassDeps): Promise<boolean> {
  if (deps.signal.aborted) return false;
  if (judged.answered || judged.failures.length === 0) {
    if (judged.answered) deps.outages.answered('judge');
    return true;
  }
  const outage = judged.failures.find((k) => isOutageKind(k));
  if (outage !== undefined && (await deps.outages.failed('judge', deps.signal))) {
    deps.stop('judge', `judge unreachable after retries (item ${item.id}: ${outage})`, outage);
    return false;
  }
  return !deps.signal.aborted;
}
