/**
 * The items through the RAG service and the judge: the clean pass (ask, anonymize, score), then the noise pass
 * when the plan has one. An outage stops the passes but not the run: what finished is still recorded and
 * reported. The RAG service down: answers already in hand are still scored; the judge down: nothing more can be.
 */
import { setMaxListeners } from 'node:events';
import { mapLimited } from '../internal/index.js';
import type { EmbeddingsClient, JudgeClient } from '../judge/index.js';
import type { SampleAnonymizer } from '../anonymize/index.js';
import type { RagwatchConfig } from '../config/index.js';
import type { Progress } from '../progress/index.js';
import type { Logger } from '../runtime/index.js';
import { ExperimentIncompleteError, type Dependency } from './errors.js';
import type { Stop } from './run-status.js';
import type { GoldenItem } from './items.js';
import { OutageWatch, type HealthProbe } from './outage.js';
import { cleanItem, noisyItem, type CleanResult, type PassDeps } from './passes.js';
import type { RunPlan } from './plan.js';

export interface PassesDeps {
  config: RagwatchConfig;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  anonymizer: SampleAnonymizer;
  logger: Logger;
  now: () => number;
  probes?: Partial<Record<Dependency, HealthProbe>>;
  progress?: Pick<Progress, 'stage' | 'advance'>;
}

export interface PassesResult {
  /** Every item selected, in order; undefined for the items the passes did not finish. */
  clean: Array<CleanResult | undefined>;
  /** Why the passes stopped early (an outage), or null. */
  stop: Stop | null;
}

/** Runs the passes; `signal` is the run's (the caller's abort stops them too). */
export async function runPasses(
  deps: PassesDeps,
  plan: RunPlan,
  items: readonly GoldenItem[],
  signal: AbortSignal,
): Promise<PassesResult> {
  const { config, logger, progress } = deps;
  const cfg = config.experiment;
  const passes = new AbortController();
  const asking = new AbortController();
  setMaxListeners(0, passes.signal, asking.signal); // one listener per waiting call, bounded by the concurrency
  const onRunAbort = () => passes.abort(signal.reason);
  signal.addEventListener('abort', onRunAbort, { once: true });
  passes.signal.addEventListener('abort', () => asking.abort(passes.signal.reason), { once: true });
  let stopped: Stop | null = null;
  const passDeps: PassDeps = {
    target: plan.target,
    scoring: {
      judge: deps.judge,
      embeddings: deps.embeddings,
      options: config.metrics,
      anonymizer: deps.anonymizer,
      metrics: cfg.metrics,
    },
    runName: plan.runName,
    concurrency: Math.max(cfg.target.concurrency, Math.ceil(config.judge.concurrency / 2)),
    now: deps.now,
    logger,
    signal: passes.signal,
    targetSignal: asking.signal,
    outages: new OutageWatch(deps.probes ?? {}, deps.now),
    stop: (dependency, message, kind) => {
      if (stopped) return;
      stopped = { dependency, message, kind };
      const why = 'stopping the experiment: a dependency is unreachable; the items that finished are kept';
      logger.warn({ dependency, error: message }, why);
      (dependency === 'rag' ? asking : passes).abort(
        new ExperimentIncompleteError(dependency, message, undefined, kind),
      );
    },
    halted: () => stopped !== null || passes.signal.aborted,
  };
  const counted =
    <T, R>(work: (x: T) => Promise<R>) =>
    async (x: T) => {
      const r = await work(x);
      progress?.advance();
      return r;
    };
  try {
    progress?.stage('experiment: clean pass', { total: items.length, unit: 'items' });
    const { concurrency, halted } = passDeps;
    const clean = await mapLimited(
      items,
      concurrency,
      counted((item) => cleanItem(item, passDeps)),
      halted,
    );
    if (plan.noise && !passDeps.halted()) {
      const finished = clean.filter((c): c is CleanResult => c !== undefined);
      const contextsPool = finished.flatMap((c) =>
        c.answer && !c.outcome.adversarial ? [{ itemId: c.outcome.itemId, contexts: c.answer.contexts }] : [],
      );
      const noisy = finished.filter((c) => !c.outcome.adversarial);
      const { distractors } = cfg.noise;
      progress?.stage('experiment: noise pass', { total: noisy.length, unit: 'items' });
      const noisyRun = (c: CleanResult) => noisyItem(c, contextsPool, distractors, cfg.seed, passDeps);
      await mapLimited(noisy, concurrency, counted(noisyRun), halted);
    }
    return { clean, stop: stopped };
  } finally {
    signal.removeEventListener('abort', onRunAbort);
  }
}
