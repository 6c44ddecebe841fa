import { nearDuplicates } from './filters.js';
import { reviewTraceId, sha256 } from './ids.js';
import { candidateFromItem, candidateItem, contentHash } from './items.js';
import type { Clock, EmbeddingsClient, GoldenDatasets, Progress, ReviewQueue, ReviewTrace } from './ports.js';
import type { CandidateRecord, GoldenBuildStore } from '../state/index.js';
import { reviewSample } from './review.js';
import type { Candidate, Chunk, Seed, Verdict } from './types.js';

/**
 * The build's last stages, over every candidate of the plan: near-duplicates across seeds (the earlier one in
 * plan order is kept), candidates of seeds no longer in the plan archived as superseded, and the review sample
 * put in the Langfuse annotation queue (one review trace per candidate, queued once).
 */

export interface FinishDeps {
  datasets: GoldenDatasets;
  store: GoldenBuildStore;
  queue: ReviewQueue;
  embeddings: EmbeddingsClient;
  progress: Progress;
  clock: Clock;
  candidatesDataset: string;
  queueName: string;
  buildId: string;
  duplicateSimilarity: number;
  reviewShare: number;
  seed: number;
  signal?: AbortSignal;
}

export interface FinishState {
  candidates: Map<string, CandidateRecord>;
  texts: Map<string, Candidate>;
}

/** The plan's candidates in plan order (seed, then position), texts read back where this run did not meet them. */
async function planCandidates(seeds: readonly Seed[], deps: FinishDeps, state: FinishState): Promise<Candidate[]> {
  const keys = new Map(seeds.map((s, i) => [s.key, i]));
  const missing = [...state.candidates.values()].some((r) => keys.has(r.seedKey) && !state.texts.has(r.candidateId));
  if (missing) {
    for (const item of await deps.datasets.items(deps.candidatesDataset)) {
      const c = candidateFromItem(item);
      if (c && !state.texts.has(c.id)) state.texts.set(c.id, c);
    }
  }
  return [...state.candidates.values()]
    .filter((r) => keys.has(r.seedKey) && state.texts.has(r.candidateId))
    .map((r) => state.texts.get(r.candidateId)!)
    .sort((a, b) => keys.get(a.seedKey)! - keys.get(b.seedKey)! || a.index - b.index);
}

async function reject(
  c: Candidate,
  verdict: Extract<Verdict, { status: 'rejected' }>,
  deps: FinishDeps,
  state: FinishState,
): Promise<CandidateRecord> {
  const previous = state.candidates.get(c.id)!;
  await deps.datasets.upsert(candidateItem(deps.candidatesDataset, c, { verdict, buildId: deps.buildId }));
  const record: CandidateRecord = {
    ...previous,
    status: 'rejected',
    reason: verdict.reason,
    contentHash: contentHash(c),
    updatedAt: deps.clock.now(),
  };
  state.candidates.set(c.id, record);
  return record;
}

export async function removeDuplicates(seeds: readonly Seed[], deps: FinishDeps, state: FinishState): Promise<number> {
  const accepted = (await planCandidates(seeds, deps, state)).filter(
    (c) => state.candidates.get(c.id)?.status === 'accepted',
  );
  if (accepted.length < 2) return 0;
  deps.progress.stage('golden: near-duplicates', { unit: 'questions', total: accepted.length });
  const vectors = await questionVectors(
    accepted.map((c) => c.question),
    deps,
  );
  deps.progress.advance(accepted.length);
  const dupes = nearDuplicates(
    accepted.map((c, i) => ({ id: c.id, question: c.question, vector: vectors[i] ?? null })),
    deps.duplicateSimilarity,
  );
  const changed: CandidateRecord[] = [];
  for (const c of accepted) {
    const d = dupes.get(c.id);
    if (!d) continue;
    changed.push(
      await reject(
        c,
        { status: 'rejected', reason: 'near_duplicate', detail: `similarity ${d.similarity.toFixed(3)} to ${d.of}` },
        deps,
        state,
      ),
    );
  }
  await deps.store.putCandidates(changed);
  return changed.length;
}

/**
 * The questions' embeddings: those the state store keeps (by embeddings model and hash of the question), the rest
 * asked for once and kept, so a finished build checks again without a request. A vector the server gave empty,
 * all zero or not finite is used as it is but not kept (asked again next time).
 */
async function questionVectors(questions: readonly string[], deps: FinishDeps): Promise<Array<number[] | null>> {
  const model = deps.embeddings.model;
  const hashes = questions.map(questionHash);
  const known = await deps.store.questionVectors(model, [...new Set(hashes)]);
  const missing = [...new Set(hashes.filter((h) => !known.has(h)))];
  const fresh = new Map<string, number[]>();
  if (missing.length > 0) {
    const text = new Map(hashes.map((h, i) => [h, questions[i]!]));
    const { vectors } = await deps.embeddings.embed(
      missing.map((h) => text.get(h)!),
      deps.signal,
    );
    missing.forEach((h, i) => {
      if (vectors[i]) fresh.set(h, vectors[i]!);
    });
    const keep = [...fresh].filter(([, v]) => v.length > 0 && v.every(Number.isFinite) && v.some((x) => x !== 0));
    await deps.store.putQuestionVectors(
      model,
      keep.map(([hash, vector]) => ({ hash, vector })),
      deps.clock.now(),
    );
  }
  return hashes.map((h) => known.get(h) ?? fresh.get(h) ?? null);
}

/** What the state store keys a question's embedding by: a hash, never the text. */
export function questionHash(question: string): string {
  return sha256('ragwatch-golden-question-v1', question);
}

/** Candidates whose seed is no longer in the plan (the corpus or the settings changed) leave the candidates set. */
export async function archiveSuperseded(seeds: readonly Seed[], deps: FinishDeps, state: FinishState): Promise<number> {
  const keys = new Set(seeds.map((s) => s.key));
  const stale = [...state.candidates.values()].filter((r) => !keys.has(r.seedKey) && r.status !== 'rejected');
  if (stale.length === 0) return 0;
  if (stale.some((r) => !state.texts.has(r.candidateId))) {
    for (const item of await deps.datasets.items(deps.candidatesDataset)) {
      const c = candidateFromItem(item);
      if (c && !state.texts.has(c.id)) state.texts.set(c.id, c);
    }
  }
  const changed: CandidateRecord[] = [];
  for (const r of stale) {
    const c = state.texts.get(r.candidateId);
    if (c)
      changed.push(
        await reject(
          c,
          { status: 'rejected', reason: 'superseded', detail: 'its seed is no longer in the build plan' },
          deps,
          state,
        ),
      );
    else changed.push({ ...r, status: 'rejected', reason: 'superseded', updatedAt: deps.clock.now() });
  }
  for (const r of changed) state.candidates.set(r.candidateId, r);
  await deps.store.putCandidates(changed);
  return changed.length;
}

export interface QueueResult {
  queueId: string | null;
  sampled: number;
  newlyQueued: number;
}

/** Samples accepted candidates for review and makes sure each sampled one has its trace and its queue item. */
export async function queueForReview(
  seeds: readonly Seed[],
  chunksById: ReadonlyMap<string, Chunk>,
  deps: FinishDeps,
  state: FinishState,
): Promise<QueueResult> {
  const accepted = (await planCandidates(seeds, deps, state)).filter(
    (c) => state.candidates.get(c.id)?.status === 'accepted',
  );
  const already = new Set(accepted.filter((c) => state.candidates.get(c.id)?.reviewTraceId).map((c) => c.id));
  const sampled = reviewSample(accepted, already, deps.reviewShare, deps.seed);
  const sample = accepted.filter((c) => sampled.has(c.id));
  if (sample.length === 0) return { queueId: null, sampled: 0, newlyQueued: 0 };
  deps.progress.stage('golden: review queue', { unit: 'candidates', total: sample.length });
  let queueId = await deps.store.reviewQueue(deps.candidatesDataset);
  if (!queueId) {
    queueId = await deps.queue.ensure(
      deps.queueName,
      `Review of generated golden-set candidates (${deps.candidatesDataset}): accept, or reject as trivial, parametric or ambiguous.`,
    );
    await deps.store.setReviewQueue(deps.candidatesDataset, queueId, deps.clock.now());
  }
  const fresh = sample.filter((c) => !state.candidates.get(c.id)?.reviewTraceId);
  const traces: ReviewTrace[] = fresh.map((c) => ({
    id: reviewTraceId(c.id),
    question: c.question,
    reference: c.reference,
    stratum: c.stratum,
    language: c.language,
    chunks: c.sourceChunkIds.map((id) => ({ id, text: chunksById.get(id)?.text ?? '' })),
    candidateId: c.id,
    candidatesDataset: deps.candidatesDataset,
    timestampMs: deps.clock.now(),
  }));
  await deps.queue.writeTraces(traces);
  const queued = await deps.queue.queuedTraces(queueId);
  let newlyQueued = 0;
  const changed: CandidateRecord[] = [];
  for (const c of sample) {
    const traceId = reviewTraceId(c.id);
    if (!queued.has(traceId)) {
      await deps.queue.enqueue(queueId, traceId);
      newlyQueued += 1;
    }
    const record = state.candidates.get(c.id)!;
    if (record.reviewTraceId !== traceId) {
      const verdict: Verdict = { status: 'accepted' };
      await deps.datasets.upsert(
        candidateItem(deps.candidatesDataset, c, {
          verdict,
          buildId: deps.buildId,
          review: { traceId, queue: deps.queueName },
        }),
      );
      const updated = { ...record, reviewTraceId: traceId, updatedAt: deps.clock.now() };
      state.candidates.set(c.id, updated);
      changed.push(updated);
    }
    deps.progress.advance();
  }
  await deps.store.putCandidates(changed);
  return { queueId, sampled: sample.length, newlyQueued };
}
