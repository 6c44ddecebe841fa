import { setMaxListeners } from 'node:events';
import type { RagwatchConfig } from '../config/index.js';
import {
  archiveSuperseded,
  queueForReview,
  removeDuplicates,
  type FinishDeps,
  type QueueResult,
} from './build-review.js';
import { errorCode, isOutageLike, processSeed, type SeedDeps, type SeedState } from './build-seed.js';
import type { CheckSettings } from './checks.js';
import type { Cost } from './cost.js';
import { sha256 } from './ids.js';
import { planBuild, type BuildPlan, type GoldenSettings } from './plan.js';
import type {
  Clock,
  EmbeddingsClient,
  FaithfulnessCheck,
  GoldenDatasets,
  JudgeClient,
  PersonalDataCheck,
  Progress,
  ReviewQueue,
} from './ports.js';
import type { GoldenBuildStore } from '../state/index.js';
import { createRetrieval } from './retrieval.js';
import { emptyStrata, type Chunk, type Stratum } from './types.js';

/**
 * `ragwatch golden build`: plan → generate and filter each seed → near-duplicates → superseded → review queue.
 * Resumable: a second build with the same corpus and settings skips what is done and adds nothing twice. An
 * outage (the judge or Langfuse failing for consecutive seeds) stops it; the next build carries on.
 */

export interface GoldenNames {
  /** Published versions are `<prefix>-v<N>`. */
  prefix: string;
  candidatesDataset: string;
  queueName: string;
}

export function goldenNames(golden: RagwatchConfig['golden']): GoldenNames {
  return {
    prefix: golden.dataset,
    candidatesDataset: golden.candidatesDataset ?? `${golden.dataset}-candidates`,
    queueName: golden.review.queue ?? `${golden.dataset} review`,
  };
}

export interface BuildDeps {
  datasets: GoldenDatasets;
  queue: ReviewQueue;
  store: GoldenBuildStore;
  generator: JudgeClient;
  judge: JudgeClient;
  embeddings: EmbeddingsClient;
  faithfulness: FaithfulnessCheck;
  personalData: PersonalDataCheck;
  /** Seeds generated and filtered at once (`seedsInFlight` in edges.ts). */
  seedsInFlight: number;
  progress: Progress;
  clock: Clock;
  cost: Cost;
}

export interface BuildOptions {
  chunks: readonly Chunk[];
  settings: GoldenSettings;
  names: GoldenNames;
  /** Token budget of the chunks of one prompt. */
  budgetTokens: number;
  dryRun?: boolean;
  /** Consecutive seeds failing on an unreachable dependency before the build stops (default 3). */
  outageAfter?: number;
  signal?: AbortSignal;
}

export interface StratumTally {
  seeds: number;
  candidates: number;
  accepted: number;
  rejected: number;
  reviewSample: number;
}

export interface BuildResult {
  plan: BuildPlan;
  dryRun: boolean;
  /** Seeds as the state store knew them before this run. */
  resume: { done: number; generated: number; pending: number };
  /** Every seed done and the review queue up to date. */
  complete: boolean;
  /** Why the build stopped early (an outage), if it did. */
  stopped: string | null;
  failures: Array<{ seedKey: string; code: string }>;
  duplicates: number;
  superseded: number;
  review: QueueResult | null;
  tally: Record<Stratum, StratumTally>;
  rejections: Record<string, number>;
  cost: Cost;
}

/** The plan, and where the state store says each of its seeds is: all that `--dry-run` needs (no judge, no writes). */
export async function planGoldenBuild(
  deps: Pick<BuildDeps, 'store' | 'personalData' | 'cost'> & { generatorModel: string },
  options: BuildOptions,
): Promise<{ result: BuildResult; state: SeedState }> {
  const names = options.names;
  const plan = planBuild({
    chunks: options.chunks,
    settings: options.settings,
    candidatesDataset: names.candidatesDataset,
    generatorModel: deps.generatorModel,
    personalData: deps.personalData,
  });
  const state: SeedState = {
    seeds: new Map((await deps.store.seeds(names.candidatesDataset)).map((r) => [r.seedKey, r])),
    candidates: new Map((await deps.store.candidates(names.candidatesDataset)).map((r) => [r.candidateId, r])),
    texts: new Map(),
  };
  const stageOf = (key: string) => state.seeds.get(key)?.stage;
  const resume = {
    done: plan.seeds.filter((x) => stageOf(x.key) === 'done').length,
    generated: plan.seeds.filter((x) => stageOf(x.key) === 'generated').length,
    pending: plan.seeds.filter((x) => stageOf(x.key) !== 'done' && stageOf(x.key) !== 'generated').length,
  };
  const result: BuildResult = {
    plan,
    dryRun: true,
    resume,
    complete: false,
    stopped: null,
    failures: [],
    duplicates: 0,
    superseded: 0,
    review: null,
    tally: emptyStrata(() => ({ seeds: 0, candidates: 0, accepted: 0, rejected: 0, reviewSample: 0 })),
    rejections: {},
    cost: deps.cost,
  };
  return { result: tallied(result, state), state };
}

export async function runGoldenBuild(deps: BuildDeps, options: BuildOptions): Promise<BuildResult> {
  const s = options.settings;
  const names = options.names;
  const { result, state } = await planGoldenBuild({ ...deps, generatorModel: deps.generator.model }, options);
  result.dryRun = options.dryRun === true;
  // Nothing to generate from (every chunk left out): nothing is created, not even the candidates dataset.
  if (options.dryRun || result.plan.seeds.length === 0) return result;
  const plan = result.plan;
  result.tally = emptyStrata(() => ({ seeds: 0, candidates: 0, accepted: 0, rejected: 0, reviewSample: 0 }));

  // A queue of that name without the review's configs would stop the build after every seed was generated.
  if (s.review.share > 0 && !(await deps.store.reviewQueue(names.candidatesDataset))) {
    const conflict = await deps.queue.conflict(names.queueName);
    if (conflict) throw conflict;
  }

  const buildId = sha256('ragwatch-golden-build', plan.hash, deps.clock.now()).slice(0, 16);
  await deps.store.startBuild({
    buildId,
    candidatesDataset: names.candidatesDataset,
    planHash: plan.hash,
    startedAt: deps.clock.now(),
  });
  const candidatesMeta = { ragwatch: 'golden-candidates', prefix: names.prefix };
  const existing = await deps.datasets.metadata(names.candidatesDataset);
  if (existing?.ragwatch !== candidatesMeta.ragwatch || existing.prefix !== candidatesMeta.prefix) {
    await deps.datasets.ensure(
      names.candidatesDataset,
      'Generated golden-set candidates: accepted ones active, rejected ones archived with their reason.',
      candidatesMeta,
    );
  }

  const personal = new Set(plan.personal);
  const corpus = options.chunks.map((c) => ({
    id: c.id,
    text: personal.has(c.id) ? deps.personalData.redact(c.text) : c.text,
  }));
  const checkSettings: CheckSettings = s.filters;
  const seedDeps: SeedDeps = {
    datasets: deps.datasets,
    store: deps.store,
    generator: deps.generator,
    checks: {
      generator: deps.generator,
      judge: deps.judge,
      faithfulness: deps.faithfulness,
      retrieval: createRetrieval(corpus, deps.embeddings),
      settings: checkSettings,
      budgetTokens: options.budgetTokens,
    },
    textFilters: s.filters,
    clock: deps.clock,
    candidatesDataset: names.candidatesDataset,
    buildId,
    questions: s.questionsPerSeed,
    budgetTokens: options.budgetTokens,
  };
  await generateAll(plan, seedDeps, state, deps.progress, deps.seedsInFlight, options, result);

  if (!result.stopped) {
    const finish: FinishDeps = {
      datasets: deps.datasets,
      store: deps.store,
      queue: deps.queue,
      embeddings: deps.embeddings,
      progress: deps.progress,
      clock: deps.clock,
      candidatesDataset: names.candidatesDataset,
      queueName: names.queueName,
      buildId,
      duplicateSimilarity: s.filters.duplicateSimilarity,
      reviewShare: s.review.share,
      seed: s.seed,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    result.duplicates = await removeDuplicates(plan.seeds, finish, state);
    if (result.failures.length === 0) result.superseded = await archiveSuperseded(plan.seeds, finish, state);
    result.review = await queueForReview(plan.seeds, new Map(plan.eligible.map((c) => [c.id, c])), finish, state);
    result.complete = result.failures.length === 0;
  }
  tallied(result, state);
  const counts: Record<string, number> = { seeds: plan.seeds.length, failed: result.failures.length };
  for (const [stratum, t] of Object.entries(result.tally))
    for (const [k, v] of Object.entries(t)) counts[`${stratum}.${k}`] = v;
  for (const [reason, n] of Object.entries(result.rejections)) counts[`rejected.${reason}`] = n;
  counts['judge.requests'] = deps.cost.generator.calls + deps.cost.judge.calls;
  await deps.store.finishBuild(
    buildId,
    result.complete ? 'complete' : result.stopped ? 'stopped' : 'incomplete',
    counts,
    deps.clock.now(),
  );
  return result;
}

async function generateAll(
  plan: BuildPlan,
  deps: SeedDeps,
  state: SeedState,
  progress: Progress,
  concurrency: number,
  options: BuildOptions,
  result: BuildResult,
): Promise<void> {
  const controller = new AbortController();
  // One abort listener per judge call waiting for a slot: bounded by the seeds in flight and their calls.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', stop, { once: true });
  const outageAfter = options.outageAfter ?? 3;
  let streak = 0;
  progress.stage('golden: generating and filtering', { unit: 'seeds', total: plan.seeds.length });
  progress.advance(result.resume.done);
  const queue = plan.seeds.filter((x) => state.seeds.get(x.key)?.stage !== 'done');
  const worker = async () => {
    for (let seed = queue.shift(); seed && !controller.signal.aborted; seed = queue.shift()) {
      try {
        await processSeed(seed, deps, state, controller.signal);
        streak = 0;
      } catch (err) {
        result.failures.push({ seedKey: seed.key, code: errorCode(err) });
        if (options.signal?.aborted) {
          result.stopped ??= 'interrupted';
          break;
        }
        streak = isOutageLike(err) ? streak + 1 : 0;
        if (streak >= outageAfter && !result.stopped) {
          result.stopped = `${errorCode(err)} on ${streak} consecutive seeds: the ${errorCode(err).split(':')[0]} looks down`;
          controller.abort();
        }
      } finally {
        progress.advance();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  progress.totalKnown();
}

function tallied(result: BuildResult, state: SeedState): BuildResult {
  const keys = new Map(result.plan.seeds.map((x) => [x.key, x.stratum]));
  for (const seed of result.plan.seeds) result.tally[seed.stratum].seeds += 1;
  const rejections: Record<string, number> = {};
  for (const r of state.candidates.values()) {
    const stratum = keys.get(r.seedKey);
    if (stratum === undefined) continue;
    const t = result.tally[stratum];
    t.candidates += 1;
    if (r.status === 'accepted') t.accepted += 1;
    if (r.status === 'rejected') {
      t.rejected += 1;
      rejections[r.reason ?? 'unknown'] = (rejections[r.reason ?? 'unknown'] ?? 0) + 1;
    }
    if (r.status === 'accepted' && r.reviewTraceId) t.reviewSample += 1;
  }
  result.rejections = rejections;
  return result;
}
