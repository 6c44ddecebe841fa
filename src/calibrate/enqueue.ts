/**
 * `ragwatch calibrate enqueue`: this week's scored traces (online and golden-set runs), a stratified sample of
 * them planned by `samplingPlan`, put in the Langfuse annotation queue. Idempotent: traces already in the queue
 * or already annotated count toward their stratum and the weekly cap, so running it again the same week adds only
 * what the week still lacks (new traces scored since), and nothing twice.
 */
import type { RagwatchConfig } from '../config/index.js';
import type { MetricName } from '../metrics/index.js';
import type { StateStore } from '../state/index.js';
import {
  enqueueTrace,
  ensureCalibrationQueue,
  calibrationQueueConflict,
  findQueue,
  queuedTraces,
  readHumanScores,
  readJudgeScores,
  type CalibrationLangfuse,
} from './langfuse.js';
import { samplingPlan, type SamplingPlan } from './sampling-plan.js';
import { enqueueCandidates, scoredTraces, type ScoredTrace } from './scored-traces.js';

export interface EnqueueDeps {
  langfuse: CalibrationLangfuse;
  config: Pick<RagwatchConfig, 'calibrate' | 'metrics'>;
  /** Names online traces whose scores do not (the ledger keeps each sampled trace's name). */
  state: Pick<StateStore, 'getEntry'> | null;
  now: number;
  signal?: AbortSignal;
}

export interface EnqueueResult {
  queue: { name: string; id: string | null };
  /** The week the plan covers: Monday 00:00 UTC to the next. */
  window: { from: string; to: string };
  plan: SamplingPlan;
  /** Trace ids put in the queue by this run (none on a dry run). */
  enqueued: string[];
  dryRun: boolean;
}

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week `now` falls in. */
export function weekStart(now: number): number {
  const day = new Date(now);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return midnight - ((day.getUTCDay() + 6) % 7) * DAY_MS;
}

/** Trace names of online traces from the ledger, where it knows them. */
export async function ledgerNames(
  state: EnqueueDeps['state'],
  traces: readonly ScoredTrace[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!state) return names;
  for (const t of traces) {
    if (t.origin !== 'online') continue;
    const entry = await state.getEntry(t.traceId);
    if (entry?.traceName) names.set(t.traceId, entry.traceName);
  }
  return names;
}

export async function runEnqueue(deps: EnqueueDeps, options: { dryRun?: boolean } = {}): Promise<EnqueueResult> {
  const cfg = deps.config.calibrate;
  const metrics = cfg.metrics as MetricName[];
  const start = weekStart(deps.now);
  const from = new Date(start).toISOString();
  const to = new Date(start + 7 * DAY_MS).toISOString();
  const signal = deps.signal;
  // Scores carry their trace's time: this week's traces. People's scores come later, whenever they annotate.
  const window = { from, to, ...(signal ? { signal } : {}) };
  const rows = await readJudgeScores(deps.langfuse, metrics, deps.config.metrics.scorePrefix, window);
  const unnamed = scoredTraces(rows).filter((t) => cfg.origins.includes(t.origin));
  const names = await ledgerNames(deps.state, unnamed);
  const traces = scoredTraces(rows, (id) => names.get(id) ?? null).filter((t) => cfg.origins.includes(t.origin));
  const humans = await readHumanScores(deps.langfuse, metrics, { from, ...(signal ? { signal } : {}) });
  const annotated = new Set(humans.filter((h) => h.metric !== null).map((h) => h.traceId));

  if (options.dryRun) {
    const conflict = await calibrationQueueConflict(deps.langfuse, cfg.queue, metrics, cfg.scale, signal);
    if (conflict) throw conflict;
  }
  const queueId = options.dryRun
    ? await findQueue(deps.langfuse, cfg.queue, signal)
    : (await ensureCalibrationQueue(deps.langfuse, cfg.queue, metrics, cfg.scale, signal)).id;
  const queued = queueId ? await queuedTraces(deps.langfuse, queueId, signal) : new Set<string>();
  const plan = samplingPlan(enqueueCandidates(traces, queued, annotated), {
    rate: cfg.rate,
    weeklyCap: cfg.weeklyCap,
    seed: cfg.seed,
    metrics,
    cuts: cfg.cuts,
  });
  const enqueued: string[] = [];
  if (!options.dryRun && queueId) {
    for (const candidate of plan.picked) {
      await enqueueTrace(deps.langfuse, queueId, candidate.traceId, signal);
      enqueued.push(candidate.traceId);
    }
  }
  const dryRun = options.dryRun === true;
  return { queue: { name: cfg.queue, id: queueId }, window: { from, to }, plan, enqueued, dryRun };
}
