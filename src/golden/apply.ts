import type { GoldenNames } from './build.js';
import { sha256 } from './ids.js';
import {
  candidateFromItem,
  candidateItem,
  contentHash,
  goldenItem,
  goldenItemView,
  type GoldenItemView,
} from './items.js';
import type { GoldenSettings } from './plan.js';
import type { Clock, GoldenDatasets, Progress, ReviewQueue } from './ports.js';
import type { CandidateRecord, GoldenBuildStore } from '../state/index.js';
import { applyReview, decisionsByTrace, type ReviewCandidate, type ReviewOutcome } from './review.js';
import { assignSplits, earlierSplits } from './splits.js';
import { emptyStrata, type Candidate, type Split, type Stratum } from './types.js';

/**
 * `ragwatch golden review [--apply]`: reads people's decisions from the annotation queue and, with `--apply`,
 * archives the candidates they rejected and publishes the golden set as a new version (`<prefix>-v<N>`):
 * accepted and unreviewed candidates in (a stratum below the acceptance floor keeps its unreviewed ones out),
 * splits assigned stratified and seeded, each item keeping the split it had in any earlier version. The
 * candidates dataset in Langfuse is the source: the state store is not needed to apply a review.
 */

export interface ApplyDeps {
  datasets: GoldenDatasets;
  queue: ReviewQueue;
  store: GoldenBuildStore;
  clock: Clock;
  progress: Progress;
}

export interface ApplyOptions {
  settings: GoldenSettings;
  names: GoldenNames;
  /** False: report the review's state only, write nothing. */
  apply: boolean;
}

export interface Publication {
  datasetName: string;
  version: number;
  items: number;
  /** Same content as the latest version: nothing was written. */
  unchanged: boolean;
}

export interface ApplyResult {
  candidates: number;
  queueId: string | null;
  outcome: ReviewOutcome;
  archived: number;
  published: Publication | null;
  sizes: Record<Stratum, Record<Split, number>>;
  warnings: string[];
}

const VERSION = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-v(\\d+)$`);

interface Accepted {
  candidate: Candidate;
  reviewTraceId: string | null;
}

async function acceptedCandidates(deps: ApplyDeps, names: GoldenNames): Promise<Accepted[]> {
  const out: Accepted[] = [];
  for (const item of await deps.datasets.items(names.candidatesDataset)) {
    const meta = (item.metadata ?? {}) as { status?: unknown; review?: { trace_id?: unknown } };
    if (item.status !== 'ACTIVE' || meta.status !== 'accepted') continue;
    const candidate = candidateFromItem(item);
    if (!candidate) continue;
    out.push({ candidate, reviewTraceId: typeof meta.review?.trace_id === 'string' ? meta.review.trace_id : null });
  }
  return out.sort((a, b) => (a.candidate.id < b.candidate.id ? -1 : 1));
}

export async function applyGoldenReview(deps: ApplyDeps, options: ApplyOptions): Promise<ApplyResult> {
  const { names, settings } = options;
  deps.progress.stage('golden: reading candidates and annotations', { unit: 'steps', total: 2 });
  const accepted = await acceptedCandidates(deps, names);
  deps.progress.advance();
  const queueId = (await deps.store.reviewQueue(names.candidatesDataset)) ?? (await deps.queue.find(names.queueName));
  const decisions = decisionsByTrace(queueId ? await deps.queue.annotations(queueId) : []);
  deps.progress.advance();
  const reviewable: ReviewCandidate[] = accepted.map((a) => ({
    id: a.candidate.id,
    stratum: a.candidate.stratum,
    reviewTraceId: a.reviewTraceId,
  }));
  const outcome = applyReview(reviewable, decisions, settings.review.minAcceptance);
  const warnings: string[] = [];
  if (accepted.length === 0)
    warnings.push(`no accepted candidates in ${names.candidatesDataset}: run \`ragwatch golden build\` first`);
  for (const [stratum, row] of Object.entries(outcome.perStratum)) {
    if (row.candidates > 0 && row.sampled > 0 && row.reviewed === 0)
      warnings.push(`${stratum}: none of its ${row.sampled} review items has been annotated yet`);
  }
  const result: ApplyResult = {
    candidates: accepted.length,
    queueId,
    outcome,
    archived: 0,
    published: null,
    sizes: emptyStrata(() => ({ dev: 0, test: 0 })),
    warnings,
  };
  if (!options.apply || accepted.length === 0) return result;

  result.archived = await archiveRejected(accepted, outcome, deps, names);
  const byId = new Map(accepted.map((a) => [a.candidate.id, a.candidate]));
  const publish = outcome.publish.map((p) => ({ candidate: byId.get(p.id)!, review: p.review }));
  const versions = await publishedVersions(deps, names.prefix);
  const previous = earlierSplits(versions.map((v) => v.items));
  const splits = assignSplits(
    publish.map((p) => ({ id: p.candidate.id, stratum: p.candidate.stratum })),
    previous,
    settings.testShare,
    settings.seed,
  );
  for (const p of publish) result.sizes[p.candidate.stratum][splits.get(p.candidate.id)!] += 1;
  const hash = sha256(
    'golden-set-v1',
    publish.map((p) => [p.candidate.id, contentHash(p.candidate), splits.get(p.candidate.id), p.review]).sort(),
  ).slice(0, 16);

  const latest = versions.at(-1);
  if (latest && latest.metadata.content_hash === hash) {
    result.published = { datasetName: latest.name, version: latest.version, items: publish.length, unchanged: true };
    return result;
  }
  // A version whose upload did not finish (no content hash yet) is completed rather than skipped.
  const version = latest && latest.metadata.content_hash === undefined ? latest.version : (latest?.version ?? 0) + 1;
  const datasetName = `${names.prefix}-v${version}`;
  const description = `Golden set v${version}: generated from the corpus, filtered, reviewed by people (${names.queueName}).`;
  await deps.datasets.ensure(datasetName, description, { ragwatch: 'golden', version, status: 'publishing' });
  deps.progress.stage(`golden: publishing ${datasetName}`, { unit: 'items', total: publish.length });
  for (const p of publish) {
    await deps.datasets.upsert(
      goldenItem(datasetName, p.candidate, splits.get(p.candidate.id)!, { status: p.review }, names.candidatesDataset),
    );
    deps.progress.advance();
  }
  const publishedAt = deps.clock.now();
  await deps.datasets.ensure(datasetName, description, {
    ragwatch: 'golden',
    version,
    content_hash: hash,
    candidates: names.candidatesDataset,
    test_share: settings.testShare,
    published_at: new Date(publishedAt).toISOString(),
    sizes: result.sizes,
  });
  await deps.store.recordPublication({
    prefix: names.prefix,
    datasetName,
    version,
    candidatesDataset: names.candidatesDataset,
    contentHash: hash,
    items: publish.length,
    publishedAt,
  });
  result.published = { datasetName, version, items: publish.length, unchanged: false };
  return result;
}

/** Candidates people rejected leave the candidates set, archived with the review's reason. */
async function archiveRejected(
  accepted: readonly Accepted[],
  outcome: ReviewOutcome,
  deps: ApplyDeps,
  names: GoldenNames,
): Promise<number> {
  const records = new Map((await deps.store.candidates(names.candidatesDataset)).map((r) => [r.candidateId, r]));
  const changed: CandidateRecord[] = [];
  for (const a of accepted) {
    const reason = outcome.rejected.get(a.candidate.id);
    if (!reason) continue;
    const verdict = { status: 'rejected' as const, reason, detail: 'rejected in review' };
    const review = a.reviewTraceId ? { traceId: a.reviewTraceId, queue: names.queueName } : undefined;
    await deps.datasets.upsert(
      candidateItem(names.candidatesDataset, a.candidate, {
        verdict,
        buildId: 'review',
        ...(review ? { review } : {}),
      }),
    );
    const previous = records.get(a.candidate.id);
    if (previous) changed.push({ ...previous, status: 'rejected', reason, updatedAt: deps.clock.now() });
  }
  await deps.store.putCandidates(changed);
  return outcome.rejected.size;
}

export interface PublishedVersion {
  name: string;
  version: number;
  metadata: Record<string, unknown>;
  items: GoldenItemView[];
}

/** Every published version of the prefix, oldest first, with its items. */
export async function publishedVersions(
  deps: Pick<ApplyDeps, 'datasets'>,
  prefix: string,
): Promise<PublishedVersion[]> {
  const re = VERSION(prefix);
  const out: PublishedVersion[] = [];
  for (const name of await deps.datasets.names()) {
    const m = re.exec(name);
    if (!m) continue;
    const metadata = (await deps.datasets.metadata(name)) ?? {};
    out.push({ name, version: Number(m[1]), metadata, items: (await deps.datasets.items(name)).map(goldenItemView) });
  }
  return out.sort((a, b) => a.version - b.version);
}
