/**
 * The items through the RAG service and the judge: each item's clean pass (ask, anonymize, score), and, when the
 * plan has a noise pass, the item again with distractors as soon as its clean result and its donors' are in (the
 * donors, fixed before the run, are the items whose retrieved chunks its distractors are drawn from). Enough
 * items are in flight to keep every judge slot busy: the judge client's limiter, not the items, sets the pace.
 * An outage stops the passes but not the run: what finished is still recorded and reported. The RAG service
 * down: answers already in hand are still scored; the judge down: nothing more can be.
 */
import { setMaxListeners } from 'node:events';
import { Limiter, mapLimited } from '../internal/index.js';
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
    concurrency: itemsInFlight(config),
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
    const cleanOf = new Map(items.map((i) => [i.id, deferred<CleanResult | undefined>()]));
    const donorsOf = plan.noise ? distractorDonors(items, cfg.noise.distractors) : new Map<string, string[]>();
    const noiseLimiter = new Limiter(concurrency);
    // Noise-pass items finished while the clean pass still runs are shown once the noise stage starts.
    let noiseDone = 0;
    let noiseStage = false;
    const noiseFinished = () => (noiseStage ? progress?.advance() : (noiseDone += 1));
    const noise: Array<Promise<void>> = [];
    const noiseFor = async (c: CleanResult) => {
      const donors = await Promise.all((donorsOf.get(c.item.id) ?? []).map((id) => cleanOf.get(id)!.promise));
      if (halted()) return;
      const pool = donors.flatMap((d) => (d?.answer ? [{ itemId: d.item.id, contexts: d.answer.contexts }] : []));
      await noiseLimiter.run(() => noisyItem(c, pool, cfg.noise.distractors, cfg.seed, passDeps));
      noiseFinished();
    };
    const clean = await mapLimited(
      items,
      concurrency,
      counted(async (item) => {
        const c = await cleanItem(item, passDeps);
        cleanOf.get(item.id)!.resolve(c ?? undefined);
        if (plan.noise && c && !c.outcome.adversarial) noise.push(noiseFor(c));
        return c;
      }),
      halted,
    );
    for (const d of cleanOf.values()) d.resolve(undefined);
    if (plan.noise && !halted()) {
      progress?.stage('experiment: noise pass', { total: noise.length, unit: 'items' });
      noiseStage = true;
      if (noiseDone > 0) progress?.advance(noiseDone);
    }
    await Promise.all(noise);
    return { clean, stop: stopped };
  } finally {
    signal.removeEventListener('abort', onRunAbort);
  }
}

/**
 * Items in flight: one per judge slot and one per RAG service slot, so that while some items wait for their
 * answers every judge slot still has an item's calls to serve (bounded by the items, held in memory as answers).
 */
export function itemsInFlight(config: Pick<RagwatchConfig, 'judge' | 'experiment'>): number {
  return config.judge.concurrency + config.experiment.target.concurrency;
}

/**
 * Each non-adversarial item's donors, fixed before the run: the items its distractors are drawn from (their
 * retrieved chunks). The items just before it in the dataset's order (after it for the first ones), several times
 * the distractors wanted, so its noise pass waits only for neighbours that started before it, never for the whole
 * clean pass; the draw among their chunks is `pickDistractors`'s, seeded by item.
 */
export function distractorDonors(items: readonly GoldenItem[], distractors: number): Map<string, string[]> {
  const grounded = items.filter((i) => !i.adversarial).map((i) => i.id);
  const width = Math.min(grounded.length - 1, Math.max(4, 3 * distractors));
  const out = new Map<string, string[]>();
  grounded.forEach((id, k) => {
    const before = grounded.slice(Math.max(0, k - width), k);
    const after = grounded.slice(k + 1, k + 1 + (width - before.length));
    out.set(id, [...before, ...after]);
  });
  return out;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
