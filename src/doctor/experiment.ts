/**
 * With the weekly experiment enabled: the golden dataset exists and has items in the configured split, and
 * the RAG service answers one of its questions with an answer and contexts where the response mapping
 * looks for them. What fails here would otherwise fail at the first weekly run.
 */
import type { RagwatchConfig } from '../config/index.js';
import {
  loadGoldenItems,
  type GoldenItem,
  createHttpTarget,
  createReplayTarget,
  targetConfigProblems,
  TargetError,
  type Target,
} from '../experiment/index.js';
import { langfuseHttpFromConfig, getDataset } from '../langfuse/index.js';
import { describeError, type Check, type DoctorDeps } from './types.js';

/** Asked when the dataset has no readable item to borrow a question from. */
const PROBE_QUESTION = 'ragwatch doctor: is the RAG service answering?';

export async function checkExperiment(config: RagwatchConfig, deps: DoctorDeps, timeoutMs: number): Promise<Check[]> {
  if (!config.experiment.enabled) return [];
  const dataset = await checkDataset(config, deps, timeoutMs);
  return [dataset.check, await checkTarget(config, deps, timeoutMs, dataset.first)];
}

async function checkDataset(
  config: RagwatchConfig,
  deps: DoctorDeps,
  timeoutMs: number,
): Promise<{ check: Check; first: GoldenItem | null }> {
  const name = 'experiment-dataset';
  const cfg = config.experiment;
  const http = langfuseHttpFromConfig(
    { langfuse: { ...config.langfuse, timeoutMs, maxAttempts: Math.min(2, config.langfuse.maxAttempts) } },
    { ...(deps.fetch ? { fetch: deps.fetch } : {}), initialBackoffMs: 200, maxRetryAfterMs: 2000 },
  );
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const dataset = await getDataset(http, cfg.dataset, signal);
    if (!dataset)
      return {
        check: {
          name,
          verdict: 'fail',
          detail: `experiment.dataset "${cfg.dataset}" does not exist in Langfuse at ${config.langfuse.baseUrl}`,
        },
        first: null,
      };
    const loaded = await loadGoldenItems(http, cfg.dataset, cfg, cfg.split, signal);
    const unreadable =
      loaded.unreadable.length > 0
        ? `; ${loaded.unreadable.length} without a question at input.${cfg.questionPath}`
        : '';
    const counts = `${loaded.items.length} readable item${loaded.items.length === 1 ? '' : 's'} in split ${cfg.split} (${loaded.total} active${unreadable})`;
    if (loaded.items.length === 0)
      return { check: { name, verdict: 'fail', detail: `"${cfg.dataset}": no ${counts.slice(2)}` }, first: null };
    return { check: { name, verdict: 'ok', detail: `"${cfg.dataset}": ${counts}` }, first: loaded.items[0] ?? null };
  } catch (err) {
    return {
      check: {
        name,
        verdict: 'fail',
        detail: `"${cfg.dataset}" at ${config.langfuse.baseUrl}: ${describeError(err, config.langfuse.baseUrl)}`,
      },
      first: null,
    };
  }
}

async function checkTarget(
  config: RagwatchConfig,
  deps: DoctorDeps,
  timeoutMs: number,
  item: GoldenItem | null,
): Promise<Check> {
  const name = 'experiment-target';
  const cfg = config.experiment.target;
  const env = deps.env ?? process.env;
  const problems = targetConfigProblems(cfg, env);
  if (problems.length > 0) return { name, verdict: 'fail', detail: problems.join('; ') };
  let target: Target;
  if (cfg.mode === 'replay') {
    if (!item) return { name, verdict: 'fail', detail: 'replay mode: no dataset item to read a stored answer from' };
    target = createReplayTarget(cfg.replay, new Map([[item.id, item.raw]]));
  } else {
    target = createHttpTarget(
      { ...cfg, timeoutMs: Math.min(cfg.timeoutMs, timeoutMs), maxAttempts: 1 },
      { ...(deps.fetch ? { fetch: deps.fetch } : {}), env },
    );
  }
  const question = item?.question ?? PROBE_QUESTION;
  const asked = item ? `dataset item ${item.id}` : 'a probe question';
  try {
    const answer = await target.ask(
      { itemId: item?.id ?? 'ragwatch-doctor', question, distractors: [], runName: 'ragwatch-doctor' },
      AbortSignal.timeout(timeoutMs),
    );
    const what = `${target.description}: ${asked} answered in ${Math.round(answer.latencyMs)} ms (${answer.answer.length} characters, ${answer.contexts.length} context${answer.contexts.length === 1 ? '' : 's'})`;
    if (answer.contexts.length === 0) {
      return {
        name,
        verdict: 'warn',
        detail: `${what}; no contexts at experiment.target.response.contexts: faithfulness and the context metrics will not be scorable`,
      };
    }
    return { name, verdict: 'ok', detail: what };
  } catch (err) {
    const reason = err instanceof TargetError ? err.message : describeError(err);
    return { name, verdict: 'fail', detail: `${target.description}: ${asked}: ${reason}` };
  }
}
